/* Builders of valid identifiers for sample and demo data (checksums computed, never hard-coded). */

const INN10_WEIGHTS = [2, 4, 10, 3, 5, 9, 4, 6, 8];

const pad = (n: number, len: number) => String(Math.abs(Math.trunc(n)) % 10 ** len).padStart(len, '0');

/** A valid 10-digit ИНН of a legal entity: region 77, then `n`, then the check digit. */
export function sampleInn(n: number): string {
  const body = `77${pad(n + 1_000_000, 7)}`;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(body[i]) * (INN10_WEIGHTS[i] ?? 0);
  return body + String((sum % 11) % 10);
}

/** A valid 13-digit ОГРН. */
export function sampleOgrn(n: number): string {
  const body = `10277${pad(n + 1_000_000, 7)}`;
  let r = 0;
  for (const ch of body) r = (r * 10 + Number(ch)) % 11;
  return body + String(r % 10);
}

/** Luhn check digit for a string of digits. */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  let double = true;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A 16-digit card number passing Luhn, with the given BIN prefix (default: a МИР card). */
export function sampleCard(n: number, prefix = '220220'): string {
  const body = (prefix + pad(n, 15 - prefix.length)).slice(0, 15);
  return body + luhnCheckDigit(body);
}

/*
 * Module field storage: what goes into `events.data`, the dedup fingerprint, the search text and
 * the API view. Card numbers are sealed (AES-256-GCM, key from SECRET), with a mask for display
 * and an HMAC for dedup and exact filtering; only the audited reveal opens them.
 */
import { createHash } from 'node:crypto';
import { maskCardNumber } from '@forpost/contract/helpers';
import { type FieldDescriptor, inputFields, type ModuleDescriptor, storedValue } from '@forpost/contract/modules';
import { hmac } from '../../../lib/crypto';
import { createSecretBox, type SecretBox } from '../../../lib/secretbox';

export type Data = Record<string, unknown>;

const maskKey = (key: string) => `${key}_mask`;
export const hashKey = (key: string) => `${key}_hash`;

export interface CardVault {
  seal(digits: string): { sealed: string; mask: string; hash: string };
  open(sealed: string): string;
  hash(digits: string): string;
}

export function createCardVault(secret: string): CardVault {
  const box: SecretBox = createSecretBox(secret, 'event-card');
  const hash = (digits: string) => hmac(secret, `card:${digits}`);
  return {
    seal: (digits) => ({ sealed: box.seal(digits), mask: maskCardNumber(digits), hash: hash(digits) }),
    open: (sealed) => box.open(sealed),
    hash,
  };
}

const isSensitive = (f: FieldDescriptor) => f.sensitive === 'card';

/** Datetimes are stored in UTC ISO form so that text comparison orders them. */
function normaliseValue(f: FieldDescriptor, v: unknown): unknown {
  return v == null ? v : storedValue(f, v);
}

/** The module's input fields present in a validated body (null = clear the field). */
export function pickModuleInput(m: ModuleDescriptor, body: Data): Data {
  const out: Data = {};
  for (const f of inputFields(m)) if (f.key in body && body[f.key] !== undefined) out[f.key] = normaliseValue(f, body[f.key]);
  return out;
}

/**
 * Stored data after applying `input` (plain values; null removes a field) to `previous` (stored form):
 * derived fields recomputed, sensitive fields sealed. Derivation sees sensitive values only when
 * they are being set (the stored ones are sealed).
 */
export function applyInput(m: ModuleDescriptor, previous: Data, input: Data, vault: CardVault): Data {
  const sensitive = m.fields.filter(isSensitive);
  const plainPrev: Data = { ...previous };
  for (const f of sensitive) {
    delete plainPrev[f.key];
    delete plainPrev[maskKey(f.key)];
    delete plainPrev[hashKey(f.key)];
  }
  const merged: Data = { ...plainPrev, ...input };
  const derived = m.derive ? m.derive(merged) : {};
  const out: Data = { ...previous, ...input, ...derived };
  for (const f of sensitive) {
    if (!(f.key in input)) continue;
    const v = input[f.key];
    if (v == null) {
      delete out[f.key];
      delete out[maskKey(f.key)];
      delete out[hashKey(f.key)];
    } else {
      const s = vault.seal(String(v));
      out[f.key] = s.sealed;
      out[maskKey(f.key)] = s.mask;
      out[hashKey(f.key)] = s.hash;
    }
  }
  for (const [k, v] of Object.entries(out)) if (v === null || v === undefined) delete out[k];
  return out;
}

/** sha256 over the module's fingerprint fields (case-insensitive; sealed fields by their HMAC). */
export function fingerprintOf(m: ModuleDescriptor, data: Data): string {
  const parts = m.fingerprint.map((k) => {
    const f = m.fields.find((x) => x.key === k);
    const v = f && isSensitive(f) ? data[hashKey(k)] : data[k];
    if (v == null) return null;
    return typeof v === 'string' ? v.trim().toLowerCase() : v;
  });
  return createHash('sha256')
    .update(JSON.stringify([m.code, ...parts]))
    .digest('hex');
}

/**
 * Words for full-text search: letters and digits only, letter/digit runs apart
 * ('sber-bonus12.ru' → 'sber bonus 12 ru', 'CVE-2019-0708' → 'cve 2019 0708'). Indexing words
 * rather than whole host names, URLs and e-mails keeps the set of distinct lexemes small, so
 * prefix queries stay cheap, and finds a domain by any of its parts.
 */
export function searchWords(s: string): string[] {
  return (
    s
      .toLowerCase()
      .replace(/(\p{L})(?=\p{N})|(\p{N})(?=\p{L})/gu, '$1$2 ')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).map((w) => w.slice(0, 100));
}

/** The text indexed for `q`: the title and the module's search fields, as words. */
export function searchTextOf(m: ModuleDescriptor, title: string, data: Data): string {
  const parts: string[] = [title];
  for (const f of m.fields) {
    if (!f.search || isSensitive(f)) continue;
    const v = data[f.key];
    if (v == null) continue;
    parts.push(Array.isArray(v) ? v.join(' ') : String(v));
  }
  return searchWords(parts.join(' ')).join(' ').slice(0, 200_000);
}

/**
 * Module fields as the API shows them (sealed fields as their mask), written into `out` (the event's
 * view): spreading a second object of ~25 keys into the common fields cost ~100 µs per row, 20× the
 * assignments — 40 % of a list request's CPU (bench/README, http.bench).
 */
export function viewOf(m: ModuleDescriptor, data: Data, out: Data = {}): Data {
  for (const f of m.fields) out[f.key] = (isSensitive(f) ? data[maskKey(f.key)] : data[f.key]) ?? null;
  return out;
}

/** A field's value as history records it (sealed fields as their mask). */
export function historyValue(f: FieldDescriptor | undefined, data: Data, key: string): unknown {
  if (f && isSensitive(f)) return data[maskKey(key)] ?? null;
  return data[key] ?? null;
}

/*
 * Keyboard layouts for the «replacement» and «insertion» families: a key's neighbours are the keys
 * left and right of it, the two above it and the two below it (rows are staggered by half a key), as
 * dnstwist defines them. Latin labels use QWERTY, QWERTZ and AZERTY (dnstwist's three); Cyrillic
 * labels use ЙЦУКЕН, the Russian standard layout.
 */

/** Rows from the digit row down; each row is shifted half a key right of the one above. */
const LATIN: readonly (readonly string[])[] = [
  ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'],
  ['1234567890', 'qwertzuiop', 'asdfghjkl', 'yxcvbnm'],
  ['1234567890', 'azertyuiop', 'qsdfghjklm', 'wxcvbn'],
];
const CYRILLIC: readonly (readonly string[])[] = [['1234567890', 'йцукенгшщзхъ', 'фывапролджэ', 'ячсмитьбю']];

type Keyboard = ReadonlyMap<string, readonly string[]>;

function neighbours(rows: readonly string[], r: number, i: number): string[] {
  const at = (row: number, col: number) => (col >= 0 ? (rows[row]?.[col] ?? '') : '');
  return [at(r, i - 1), at(r, i + 1), at(r - 1, i), at(r - 1, i + 1), at(r + 1, i - 1), at(r + 1, i)].filter(Boolean);
}

function build(layouts: readonly (readonly string[])[]): Keyboard {
  const keys = new Map<string, Set<string>>();
  for (const rows of layouts)
    rows.forEach((row, r) => {
      [...row].forEach((key, i) => {
        const set = keys.get(key) ?? new Set<string>();
        for (const n of neighbours(rows, r, i)) set.add(n);
        keys.set(key, set);
      });
    });
  return new Map([...keys].map(([k, v]) => [k, [...v].sort()]));
}

const LATIN_KEYS = build(LATIN);
const CYRILLIC_KEYS = build(CYRILLIC);
const NONE: readonly string[] = [];

/**
 * The keys around `c`: a letter on its own script's layouts; a digit on the layouts of the label's
 * script (`cyrillic`: the label has Cyrillic letters), so a Latin label never gets Cyrillic letters.
 */
export function keyNeighbours(c: string, cyrillic: boolean): readonly string[] {
  const [first, second] = cyrillic ? [CYRILLIC_KEYS, LATIN_KEYS] : [LATIN_KEYS, CYRILLIC_KEYS];
  return first.get(c) ?? second.get(c) ?? NONE;
}

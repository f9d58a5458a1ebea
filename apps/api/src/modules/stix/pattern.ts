/*
 * STIX patterns (STIX 2.1 §9) for Forpost's indicators: the builder of the comparison expressions the
 * mapping emits (`[domain-name:value = '…']`) and a parser of the pattern grammar's comparison part —
 * observation expressions in brackets joined by AND / OR / FOLLOWEDBY, comparison expressions joined
 * by AND / OR with parentheses, object paths, the comparison operators and string, integer, float,
 * boolean literals. The tests parse every indicator the mapping emits with it.
 */

/** A string literal: quoted, with `\` and `'` escaped (§9.4). */
export const stixString = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** `[<type>:<path> = '<value>']`. */
export const equalsPattern = (type: string, path: string, value: string) => `[${type}:${path} = ${stixString(value)}]`;

export interface StixComparison {
  objectType: string;
  path: string[];
  negated: boolean;
  op: string;
  value: string | number | boolean;
}
export type StixComparisonExpr = StixComparison | { join: 'AND' | 'OR'; left: StixComparisonExpr; right: StixComparisonExpr };
export type StixPatternExpr =
  | { observation: StixComparisonExpr }
  | { join: 'AND' | 'OR' | 'FOLLOWEDBY'; left: StixPatternExpr; right: StixPatternExpr };

const OPS = ['>=', '<=', '!=', '=', '>', '<', 'LIKE', 'MATCHES', 'ISSUBSET', 'ISSUPERSET'];

/** Parses a pattern; throws with the position of the first error. */
export function parseStixPattern(src: string): StixPatternExpr {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`STIX pattern: ${what} at ${i} in ${src}`);
  };
  const ws = () => {
    while (i < src.length && /\s/.test(src[i] ?? '')) i++;
  };
  const word = (w: string) => {
    ws();
    if (src.startsWith(w, i) && !/[A-Za-z0-9_]/.test(src[i + w.length] ?? '')) {
      i += w.length;
      return true;
    }
    return false;
  };
  const char = (c: string) => {
    ws();
    if (src[i] === c) {
      i++;
      return true;
    }
    return false;
  };

  function literal(): string | number | boolean {
    ws();
    if (src[i] === "'") {
      i++;
      let out = '';
      for (;;) {
        const c = src[i];
        if (c === undefined) fail('unterminated string');
        if (c === '\\') {
          const n = src[i + 1];
          if (n !== '\\' && n !== "'") fail('bad escape');
          out += n;
          i += 2;
        } else if (c === "'") {
          i++;
          return out;
        } else {
          out += c;
          i++;
        }
      }
    }
    if (word('true')) return true;
    if (word('false')) return false;
    const m = /^[+-]?\d+(\.\d+)?/.exec(src.slice(i));
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    return fail('literal expected');
  }

  function comparison(): StixComparisonExpr {
    if (char('(')) {
      const e = comparisonOr();
      if (!char(')')) fail(') expected');
      return e;
    }
    ws();
    const t = /^[a-z][a-z0-9-]*[a-z0-9]:/.exec(src.slice(i)) ?? fail('object type expected');
    const objectType = t[0].slice(0, -1);
    i += t[0].length;
    const path: string[] = [];
    const first = /^[a-z0-9_]+/.exec(src.slice(i)) ?? fail('property expected');
    path.push(first[0]);
    i += first[0].length;
    for (;;) {
      if (src[i] === '.') {
        const p = /^\.([a-z0-9_]+|'[^']+')/.exec(src.slice(i)) ?? fail('path component expected');
        path.push(p[1] ?? '');
        i += p[0].length;
      } else if (src[i] === '[') {
        const p = /^\[(\d+|\*)\]/.exec(src.slice(i)) ?? fail('index expected');
        path.push(`[${p[1]}]`);
        i += p[0].length;
      } else break;
    }
    const negated = word('NOT');
    ws();
    const sym = (o: string) => {
      if (!src.startsWith(o, i)) return false;
      i += o.length;
      return true;
    };
    const op = OPS.find((o) => (/^[A-Z]/.test(o) ? word(o) : sym(o)));
    if (!op) fail('operator expected');
    return { objectType, path, negated, op: op as string, value: literal() };
  }
  function comparisonAnd(): StixComparisonExpr {
    let left = comparison();
    while (word('AND')) left = { join: 'AND', left, right: comparison() };
    return left;
  }
  function comparisonOr(): StixComparisonExpr {
    let left = comparisonAnd();
    while (word('OR')) left = { join: 'OR', left, right: comparisonAnd() };
    return left;
  }
  function observation(): StixPatternExpr {
    if (char('(')) {
      const e = patternExpr();
      if (!char(')')) fail(') expected');
      return e;
    }
    if (!char('[')) fail('[ expected');
    const e = comparisonOr();
    if (!char(']')) fail('] expected');
    return { observation: e };
  }
  function patternExpr(): StixPatternExpr {
    let left = observation();
    for (;;) {
      const j = word('AND') ? 'AND' : word('OR') ? 'OR' : word('FOLLOWEDBY') ? 'FOLLOWEDBY' : null;
      if (!j) return left;
      left = { join: j, left, right: observation() };
    }
  }
  const e = patternExpr();
  ws();
  if (i !== src.length) fail('end expected');
  return e;
}

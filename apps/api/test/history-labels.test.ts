/*
 * Every field the API can write to an event's history has a Russian name from the contract
 * (historyFieldLabel: the console shows it), and every link name belongs to a field the API really
 * writes. What is written: the common fields and module fields a PATCH (or an import) changes, the
 * module's actions, and the literal fields of the extras and the classifier (`field: '…'`).
 */
import { eventPatchRequest } from '@forpost/contract/events';
import { HISTORY_LINK_LABELS, historyFieldLabel, MODULE_LIST } from '@forpost/contract/modules';
import { describe, expect, it } from 'vitest';
import { apiSources } from './api-sources';

const code = apiSources();

/** History fields written literally: `field: 'x'` in a history entry. */
function literalFields(): Set<string> {
  const found = new Set<string>();
  for (const text of code) for (const m of text.matchAll(/\bfield:\s*'([a-z_]+)'/g)) found.add(m[1] as string);
  return found;
}

/** What a PATCH of the module may change: each key of its request, `tags_add`/`tags_remove` recorded as `tags`. */
const patchFields = (m: (typeof MODULE_LIST)[number]) =>
  Object.keys(eventPatchRequest(m).shape).map((k) => (k === 'tags_add' || k === 'tags_remove' ? 'tags' : k));

describe('event history field names', () => {
  it('every field a change, an action or an import writes has a Russian name in its module', () => {
    const missing: string[] = [];
    for (const m of MODULE_LIST) {
      const written = [...patchFields(m), ...m.fields.map((f) => f.key), ...(m.actions ?? []).map((a) => a.code)];
      for (const f of written) if (!historyFieldLabel(m, f)) missing.push(`${m.code}.${f}`);
    }
    expect(missing).toEqual([]);
    for (const m of MODULE_LIST) for (const f of patchFields(m)) expect(historyFieldLabel(m, f)).toMatch(/^[А-ЯЁA-Z]/);
  });

  it('every field the extras and the classifier write literally has a Russian name in some module', () => {
    const literal = literalFields();
    expect(literal.size).toBeGreaterThanOrEqual(4);
    expect([...literal].filter((f) => !MODULE_LIST.some((m) => historyFieldLabel(m, f)))).toEqual([]);
  });

  it('every link name belongs to a field the API writes', () => {
    const literal = literalFields();
    expect(Object.keys(HISTORY_LINK_LABELS).filter((f) => !literal.has(f))).toEqual([]);
  });
});

/*
 * The mailing form carries the events' assignee to the API — in the saved body and in the preview's
 * filters — as the three states the API knows: anyone (null), unassigned ('none'), a user id.
 */
import { describe, expect, it } from 'vitest';
import { assigneeFromSelect, assigneeToSelect, filtersBody, type MailingFormValues, toBody, toValues } from './values';

describe('mailing assignee filter', () => {
  it('round-trips through the select: empty = anyone, none, a user', () => {
    for (const v of [null, 'none', 42] as const) expect(assigneeFromSelect(assigneeToSelect(v))).toBe(v);
    expect(assigneeToSelect(null)).toBeUndefined();
    expect(assigneeToSelect(7)).toBe('7');
    expect(assigneeFromSelect(undefined)).toBeNull();
    expect(assigneeFromSelect('me')).toBeNull();
  });

  it('goes into the preview filters and the saved body', () => {
    const v: MailingFormValues = { ...toValues(undefined, 3, false), name: 'x', recipients: ['a@b.ru'], assignee: 'none' };
    expect(filtersBody(v).filters.assignee).toBe('none');
    expect(toBody({ ...v, assignee: 12 }).filters?.assignee).toBe(12);
    expect(toBody({ ...v, assignee: null }).filters?.assignee).toBeNull();
    // A form value not yet registered (the preview before the field renders) means anyone.
    expect(filtersBody({ company_id: 3 }).filters.assignee).toBeNull();
  });

  it('a stored mailing shows its assignee; one stored before the filter existed shows anyone', () => {
    const stored = {
      id: 1,
      name: 'm',
      company_id: 3,
      recipients: ['a@b.ru'],
      filters: { modules: [], statuses: [], priorities: [], sources: [], tags: [], assignee: 5, text: '' },
      params: { frequency: 'instant', hour: 9, weekday: 1, quiet_hours: null, format: 'html', max_events: 50 },
      is_active: true,
    } as unknown as Parameters<typeof toValues>[0];
    expect(toValues(stored, 3, false).assignee).toBe(5);
    const old = { ...stored, filters: { ...stored?.filters, assignee: undefined } } as unknown as Parameters<typeof toValues>[0];
    expect(toValues(old, 3, false).assignee).toBeNull();
  });
});

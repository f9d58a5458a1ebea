import { MSG } from '@forpost/contract/messages';
import { EVENT_MSG, type FieldDescriptor, getModule, inputFields, MODULE_LIST } from '@forpost/contract/modules';
import { describe, expect, it } from 'vitest';
import { fingerprintInputs, same, toForm, toWire } from './edit';

describe('«Изменить»: one mechanism for every module', () => {
  it.each(MODULE_LIST.map((m) => [m.code, m] as const))(
    '%s: every sample value survives stored → form → wire and passes its schema',
    (_c, m) => {
      const sample = m.sample(3);
      for (const f of inputFields(m)) {
        if (!(f.key in sample)) continue;
        const form = toForm(f, sample[f.key]);
        if (f.sensitive === 'card') {
          // The number never enters the form.
          expect(form).toBeUndefined();
          continue;
        }
        const wire = toWire(f, form);
        // Date-times come back in UTC ISO form (as the API stores them): the same instant.
        if (f.type === 'datetime') expect(Date.parse(String(wire))).toBe(Date.parse(String(sample[f.key])));
        else expect(same(wire, sample[f.key]), `${m.code}.${f.key}`).toBe(true);
        expect(f.input.safeParse(wire).success, `${m.code}.${f.key}`).toBe(true);
      }
    },
  );

  it('empty inputs clear the field; the registry schema gives the spec’s messages', () => {
    const domains = getModule('domains');
    const url = domains.fields.find((f) => f.key === 'url') as FieldDescriptor;
    const ip = domains.fields.find((f) => f.key === 'ip') as FieldDescriptor;
    expect(toWire(url, '   ')).toBeNull();
    expect(toWire(url, undefined)).toBeNull();
    expect(url.input.safeParse(toWire(url, 'ссылка без протокола')).error?.issues[0]?.message).toBe(MSG.url);
    expect(ip.input.safeParse(toWire(ip, '300.1.2.3')).error?.issues[0]?.message).toBe(EVENT_MSG.ip);
    const firms = getModule('firms');
    const inn = firms.fields.find((f) => f.key === 'inn') as FieldDescriptor;
    expect(inn.input.safeParse(toWire(inn, ' 7707083894 ')).error?.issues[0]?.message).toBe(MSG.inn);
  });

  it('an unset optional field is not sent unless changed (booleans included)', () => {
    const repos = getModule('repositories');
    const secrets = repos.fields.find((f) => f.key === 'secrets_found') as FieldDescriptor;
    expect(same(toWire(secrets, toForm(secrets, null)), null)).toBe(true);
    expect(toWire(secrets, false)).toBe(false);
    expect(toWire(secrets, true)).toBe(true);
  });

  it('a duplicate belongs to the fields that identify the event', () => {
    expect(fingerprintInputs(getModule('domains'))).toEqual(['domain']);
    expect(fingerprintInputs(getModule('firms'))).toEqual(['inn']);
    expect(fingerprintInputs(getModule('acquiring'))).toEqual(['card_number']);
  });
});

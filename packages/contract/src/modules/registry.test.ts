import '../zod-setup';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventCreateRequest, eventListQuery, eventPatchRequest, eventResponse } from '../events';
import { isCardNumber, isInn, isOgrn } from '../validation';
import {
  COMMON_KEYS,
  columnsOf,
  fieldOf,
  filtersOf,
  headerKey,
  inputFields,
  MODULE_CODES,
  MODULE_ICONS,
  MODULE_LIST,
  MODULES,
  moduleByRoute,
  paymentSystemOf,
  sampleCard,
  sampleInn,
  sampleOgrn,
} from './index';
import { isModuleSectionCode, MODULE_SECTIONS } from './sections';

describe('module registry', () => {
  it('gives every descriptor the identity of its line in sections.ts', () => {
    expect(MODULE_SECTIONS).toEqual(
      MODULE_LIST.map(({ id, code, route, name, icon, color }) => ({ id, code, route, name, icon, color })),
    );
    expect(MODULE_CODES.every(isModuleSectionCode)).toBe(true);
    expect(isModuleSectionCode('nope')).toBe(false);
  });

  it('has the modules of the design, with unique ids, codes, routes, colours and icons, in the order of their ids', () => {
    const n = MODULE_LIST.length;
    expect(n).toBeGreaterThanOrEqual(16);
    expect(MODULE_CODES).toHaveLength(n);
    expect(new Set(MODULE_LIST.map((m) => m.id)).size).toBe(n);
    expect(new Set(MODULE_LIST.map((m) => m.route)).size).toBe(n);
    expect(new Set(MODULE_LIST.map((m) => m.color.toLowerCase())).size).toBe(n);
    expect(new Set(MODULE_LIST.map((m) => m.icon)).size).toBe(n);
    expect(MODULE_LIST.map((m) => m.id)).toEqual([...MODULE_LIST.map((m) => m.id)].sort((a, b) => a - b));
    expect(MODULE_CODES[0]).toBe('domains');
    for (const code of MODULE_CODES) expect(MODULES[code].code).toBe(code);
    expect(moduleByRoute('/brands')?.code).toBe('brand');
    expect(moduleByRoute('/network-attacks')?.code).toBe('networkattacks');
    expect(moduleByRoute('/merchants')?.code).toBe('merchant');
  });

  for (const m of MODULE_LIST) {
    describe(m.code, () => {
      it('fields are snake_case, labelled in Russian and never shadow a common field', () => {
        const keys = m.fields.map((f) => f.key);
        expect(new Set(keys).size).toBe(keys.length);
        for (const f of m.fields) {
          expect(f.key).toMatch(/^[a-z][a-z0-9_]*$/);
          expect(f.label).toMatch(/[А-Яа-яЁё]|^(URL|MID|MCC|Email)$/);
          expect(COMMON_KEYS.has(f.key)).toBe(false);
          if (f.type === 'enum') expect(f.options?.length).toBeGreaterThan(0);
        }
      });
      it('columns, fingerprint and filters resolve to real fields', () => {
        expect(columnsOf(m).length).toBe(m.columns.length);
        for (const k of m.fingerprint) expect(m.fields.some((f) => f.key === k)).toBe(true);
        expect(filtersOf(m).length).toBeGreaterThan(8);
      });
      it('colour, icon, classification and whitelist name field are valid', () => {
        expect(m.color).toMatch(/^#[0-9a-f]{6}$/i);
        expect(MODULE_ICONS).toContain(m.icon);
        for (const k of m.classify?.fields ?? []) expect(fieldOf(m, k)?.key).toBe(k);
        if (m.classify?.kind === 'sentiment') expect(fieldOf(m, 'connotation')?.type).toBe('enum');
        if (m.whitelistName) expect(fieldOf(m, m.whitelistName)?.type).toBe('string');
        // The snapshot check reads the domain (in punycode) of the modules that have the extra.
        if (m.extras.includes('snapshots')) {
          expect(fieldOf(m, 'domain')?.type).toBe('domain');
          expect(fieldOf(m, 'domain_punycode')?.derived).toBe(true);
        }
      });
      it('its sample passes the create schema and varies the fingerprint', () => {
        const a = eventCreateRequest(m).safeParse({ company_id: 1, ...m.sample(1) });
        expect(a.error?.issues ?? []).toEqual([]);
        const b = eventCreateRequest(m).safeParse({ company_id: 1, ...m.sample(2) });
        expect(b.success).toBe(true);
        const fp = (d: Record<string, unknown>) => JSON.stringify(m.fingerprint.map((k) => d[k] ?? m.derive?.(d)[k] ?? null));
        expect(fp(a.data as Record<string, unknown>)).not.toBe(fp(b.data as Record<string, unknown>));
        expect(m.title(a.data as Record<string, unknown>).length).toBeGreaterThan(0);
      });
      it('refuses a field of another module and a derived field', () => {
        const other = MODULE_LIST.find((o) => o !== m && o.fields.some((f) => !m.fields.some((g) => g.key === f.key)));
        const foreign = other?.fields.find((f) => !m.fields.some((g) => g.key === f.key));
        const r = eventCreateRequest(m).safeParse({ ...m.sample(1), [foreign?.key ?? 'x']: 'x' });
        expect(r.success).toBe(false);
        const derived = m.fields.find((f) => f.derived);
        if (derived) expect(eventPatchRequest(m).safeParse({ [derived.key]: 'x' }).success).toBe(false);
      });
      it('required fields are required', () => {
        for (const f of inputFields(m).filter((x) => x.required)) {
          const body: Record<string, unknown> = { ...m.sample(1) };
          delete body[f.key];
          const r = eventCreateRequest(m).safeParse(body);
          expect(r.success).toBe(false);
          expect(r.error?.issues[0]?.message).toBe('Обязательное поле');
        }
      });
      it('produces JSON schemas for the API documentation', () => {
        expect(() => z.toJSONSchema(eventCreateRequest(m), { io: 'input' })).not.toThrow();
        expect(() => z.toJSONSchema(eventListQuery(m), { io: 'input' })).not.toThrow();
        expect(() => z.toJSONSchema(eventResponse(m), { io: 'output' })).not.toThrow();
      });
      it('maps import headers in Russian and English to fields', () => {
        for (const f of inputFields(m)) expect(headerKey(m, f.label)).toBe(f.key);
        expect(headerKey(m, 'Заголовок')).toBe('title');
        expect(headerKey(m, 'Дата обнаружения')).toBe('detected_at');
      });
    });
  }

  it('domains store Unicode and punycode and flag Cyrillic', () => {
    const d = MODULES.domains.derive?.({ domain: 'xn--e1afmkfd.xn--p1ai' });
    expect(d).toEqual({ domain: 'пример.рф', domain_punycode: 'xn--e1afmkfd.xn--p1ai', is_cyrillic: true });
    expect(MODULES.domains.derive?.({ domain: 'sber.ru' })).toMatchObject({ domain_punycode: 'sber.ru', is_cyrillic: false });
  });

  it('sample identifiers pass their checksums', () => {
    for (let n = 0; n < 50; n++) {
      expect(isInn(sampleInn(n))).toBe(true);
      expect(isOgrn(sampleOgrn(n))).toBe(true);
      expect(isCardNumber(sampleCard(n))).toBe(true);
    }
    expect(paymentSystemOf('2202201234567890')).toBe('mir');
    expect(paymentSystemOf('4276123412341234')).toBe('visa');
    expect(paymentSystemOf('5536913812345678')).toBe('mastercard');
  });

  it('validation messages are the spec’s', () => {
    const m = MODULES.firms;
    const r = eventCreateRequest(m).safeParse({ ...m.sample(1), inn: '7707083894', ogrn: '1027700132196' });
    expect(r.error?.issues.map((i) => i.message)).toEqual(expect.arrayContaining(['Неверный ИНН', 'Неверный ОГРН']));
    const a = eventCreateRequest(MODULES.acquiring).safeParse({ card_number: '4276 1234 1234 1235' });
    expect(a.error?.issues[0]?.message).toBe('Неверный формат номера карты');
  });
});

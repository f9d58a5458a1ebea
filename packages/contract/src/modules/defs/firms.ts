import { EVENT_MSG } from '../common';
import { field } from '../fields';
import { sampleInn, sampleOgrn } from '../samples';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const firms: ModuleDescriptor<'firms'> = {
  ...section('firms'),
  description: 'Юридические лица, использующие название компании или выдающие себя за неё.',
  fields: [
    field.string('firm_name', 'Наименование', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Наименование', 'Название', 'Юрлицо', 'company', 'name', 'firm'],
    }),
    field.inn('inn', 'ИНН', { required: true, aliases: ['ИНН', 'inn', 'tax id'] }),
    field.ogrn('ogrn', 'ОГРН', { aliases: ['ОГРН', 'ОГРНИП', 'ogrn'] }),
    field.string('address', 'Адрес', { search: true, filter: 'contains', aliases: ['Адрес', 'Юридический адрес', 'address'] }),
    field.string('director', 'Руководитель', {
      search: true,
      filter: 'contains',
      aliases: ['Руководитель', 'Директор', 'director', 'ceo'],
    }),
    field.date('registered_at', 'Дата регистрации', { aliases: ['Дата регистрации', 'registered', 'registration date'] }),
    field.string('okved', 'ОКВЭД', {
      max: 8,
      pattern: [/^\d{2}(\.\d{1,2}){0,2}$/, EVENT_MSG.okved],
      filter: 'eq',
      aliases: ['ОКВЭД', 'okved'],
    }),
    field.text('reason', 'Основание', { search: true, aliases: ['Основание', 'Причина', 'reason'] }),
  ],
  columns: ['id', 'firm_name', 'inn', 'ogrn', 'director', 'registered_at', 'status_id', 'priority_id', 'tags', 'created_at'],
  fingerprint: ['inn'],
  title: (d) => `${String(d.firm_name ?? '')} (ИНН ${String(d.inn ?? '')})`,
  extras: [],
  whitelistName: 'firm_name',
  sample: (n) => ({
    firm_name: `ООО «Сбер Инвест Групп ${n}»`,
    inn: sampleInn(n),
    ogrn: sampleOgrn(n),
    address: 'г. Москва, ул. Ленина, д. 1',
    director: 'Петров Пётр Петрович',
    registered_at: '2025-11-03',
    okved: '64.99',
    reason: 'Название сходно до степени смешения',
  }),
};

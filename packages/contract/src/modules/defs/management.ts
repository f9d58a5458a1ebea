import { TAKEDOWN_DECISIONS } from '../common';
import { field, PLATFORM_OPTIONS } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const management: ModuleDescriptor<'management'> = {
  ...section('management'),
  description: 'Поддельные аккаунты и публикации от имени руководителей компании.',
  fields: [
    field.string('person_name', 'ФИО руководителя', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['ФИО', 'Руководитель', 'ФИО руководителя', 'person', 'full name', 'name'],
    }),
    field.string('position', 'Должность', { search: true, filter: 'contains', aliases: ['Должность', 'position', 'title'] }),
    field.url('url', 'Ссылка', { required: true, search: true, filter: 'contains', aliases: ['Ссылка', 'URL', 'link'] }),
    field.enum('platform', 'Площадка', PLATFORM_OPTIONS, { aliases: ['Площадка', 'Платформа', 'platform'] }),
    field.string('account_name', 'Аккаунт', {
      indicator: 'account',
      search: true,
      filter: 'contains',
      aliases: ['Аккаунт', 'account', 'username'],
    }),
    field.text('description', 'Описание', { search: true, aliases: ['Описание', 'description'] }),
  ],
  columns: ['id', 'person_name', 'position', 'url', 'platform', 'status_id', 'priority_id', 'decision_id', 'tags', 'created_at'],
  fingerprint: ['url', 'person_name'],
  title: (d) => `${String(d.person_name ?? '')}: ${String(d.url ?? '')}`,
  decisions: TAKEDOWN_DECISIONS,
  actions: [
    { code: 'takedown', label: 'Запрос на удаление' },
    { code: 'report_platform', label: 'Жалоба площадке' },
  ],
  extras: ['decisions', 'actions'],
  sample: (n) => ({
    person_name: 'Греф Герман Оскарович',
    position: 'Президент, председатель правления',
    url: `https://t.me/gref_official_${n}`,
    platform: 'telegram',
    account_name: `@gref_official_${n}`,
  }),
};

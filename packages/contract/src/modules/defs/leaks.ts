import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const leaks: ModuleDescriptor<'leaks'> = {
  ...section('leaks'),
  description: 'Утечки данных компании: дампы баз, документы, логи стилеров.',
  fields: [
    field.string('leak_name', 'Название утечки', {
      listWidth: 240,
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Утечка', 'Название', 'Название утечки', 'leak', 'name'],
    }),
    field.ref('leak_type_id', 'Тип утечки', 'leak_types', { aliases: ['Тип', 'Тип утечки', 'leak type', 'type'] }),
    field.ref('leak_id', 'Утечка из каталога', 'leaks', { aliases: ['ID утечки', 'leak id'] }),
    field.integer('records_count', 'Записей', { filter: 'range', aliases: ['Записей', 'Количество записей', 'records'] }),
    field.date('leaked_at', 'Дата утечки', { aliases: ['Дата утечки', 'leak date', 'date'] }),
    field.url('source_url', 'Источник', { search: true, aliases: ['Источник', 'Ссылка', 'source', 'url'] }),
    field.string('data_types', 'Состав данных', { search: true, aliases: ['Состав данных', 'Данные', 'data', 'data types'] }),
    field.text('description', 'Описание', { search: true, aliases: ['Описание', 'description'] }),
  ],
  columns: ['id', 'leak_name', 'leak_type_id', 'records_count', 'leaked_at', 'status_id', 'priority_id', 'tags', 'created_at'],
  fingerprint: ['leak_name', 'source_url'],
  title: (d) => String(d.leak_name ?? ''),
  extras: ['leak_catalogue', 'leak_types'],
  sample: (n) => ({
    leak_name: `Дамп CRM партнёра ${n}`,
    records_count: 50000 + n,
    leaked_at: '2026-02-10',
    source_url: `https://breachforums.example/thread/${n}`,
    data_types: 'ФИО, телефоны, email',
  }),
};

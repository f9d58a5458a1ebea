import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const databases: ModuleDescriptor<'databases'> = {
  ...section('databases'),
  description: 'Открытые в интернет или выложенные базы данных с данными компании.',
  fields: [
    field.string('db_name', 'Название базы', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['База', 'Название базы', 'database', 'db name', 'db'],
    }),
    field.enum(
      'db_type',
      'СУБД',
      [
        { value: 'postgresql', label: 'PostgreSQL' },
        { value: 'mysql', label: 'MySQL' },
        { value: 'mssql', label: 'MS SQL' },
        { value: 'oracle', label: 'Oracle' },
        { value: 'mongodb', label: 'MongoDB' },
        { value: 'elasticsearch', label: 'Elasticsearch' },
        { value: 'redis', label: 'Redis' },
        { value: 'clickhouse', label: 'ClickHouse' },
        { value: 'other', label: 'Другая' },
      ],
      { aliases: ['СУБД', 'Тип базы', 'dbms', 'db type'] },
    ),
    field.host('host', 'Хост', { required: true, search: true, filter: 'contains', aliases: ['Хост', 'Адрес', 'host', 'ip'] }),
    field.integer('port', 'Порт', { min: 1, max: 65535, filter: 'eq', aliases: ['Порт', 'port'] }),
    field.integer('records_count', 'Записей', { filter: 'range', aliases: ['Записей', 'Количество записей', 'records', 'rows'] }),
    field.number('size_mb', 'Размер, МБ', { min: 0, aliases: ['Размер', 'Размер, МБ', 'size', 'size mb'] }),
    field.string('exposed_fields', 'Состав данных', { search: true, aliases: ['Состав данных', 'Поля', 'fields', 'columns'] }),
    field.url('url', 'Ссылка', { aliases: ['Ссылка', 'URL', 'link'] }),
  ],
  columns: ['id', 'db_name', 'db_type', 'host', 'port', 'records_count', 'status_id', 'priority_id', 'tags', 'created_at'],
  fingerprint: ['host', 'port', 'db_name'],
  title: (d) => `${String(d.db_name ?? '')} на ${String(d.host ?? '')}${d.port ? `:${String(d.port)}` : ''}`,
  extras: [],
  sample: (n) => ({
    db_name: `clients_${n}`,
    db_type: 'elasticsearch',
    host: `91.${(n * 3) % 256}.${(n * 11) % 256}.${(n % 250) + 1}`,
    port: 9200,
    records_count: 125000 + n,
    exposed_fields: 'ФИО, телефон, email, номер договора',
  }),
};

import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const endpoints: ModuleDescriptor<'endpoints'> = {
  ...section('endpoints'),
  description: 'Доступные из интернета API, админ-панели и служебные страницы компании.',
  fields: [
    field.url('url', 'URL', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['URL', 'Адрес', 'Ссылка', 'endpoint', 'url'],
    }),
    field.enum(
      'method',
      'Метод',
      ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'ANY'].map((m) => ({ value: m, label: m === 'ANY' ? 'Любой' : m })),
      { aliases: ['Метод', 'method', 'http method'] },
    ),
    field.integer('http_status', 'HTTP-статус', {
      min: 100,
      max: 599,
      filter: 'eq',
      aliases: ['HTTP-статус', 'Код ответа', 'status', 'status code'],
    }),
    field.enum(
      'endpoint_type',
      'Тип',
      [
        { value: 'api', label: 'API' },
        { value: 'admin_panel', label: 'Панель администратора' },
        { value: 'login_form', label: 'Форма входа' },
        { value: 'debug', label: 'Отладочная страница' },
        { value: 'storage', label: 'Хранилище файлов' },
        { value: 'other', label: 'Другое' },
      ],
      { aliases: ['Тип', 'type', 'endpoint type'] },
    ),
    field.string('technology', 'Технология', {
      search: true,
      filter: 'contains',
      aliases: ['Технология', 'ПО', 'technology', 'stack'],
    }),
    field.ip('ip', 'IP-адрес', { search: true, filter: 'eq', aliases: ['IP', 'IP-адрес', 'ip'] }),
    field.text('description', 'Описание', { search: true, aliases: ['Описание', 'description'] }),
  ],
  columns: [
    'id',
    'url',
    'method',
    'http_status',
    'endpoint_type',
    'technology',
    'status_id',
    'priority_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['url', 'method'],
  title: (d) => `${String(d.method ?? 'GET')} ${String(d.url ?? '')}`,
  extras: [],
  sample: (n) => ({
    url: `https://api${n}.example-bank.ru/actuator/env`,
    method: 'GET',
    http_status: 200,
    endpoint_type: 'debug',
    technology: 'Spring Boot',
    ip: `10.${n % 256}.0.1`,
  }),
};

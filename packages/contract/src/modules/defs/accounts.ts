import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const accounts: ModuleDescriptor<'accounts'> = {
  ...section('accounts'),
  description: 'Учётные записи клиентов и сотрудников, найденные в утечках.',
  fields: [
    field.string('login', 'Логин', {
      required: true,
      indicator: 'account',
      max: 320,
      search: true,
      filter: 'contains',
      aliases: ['Логин', 'Учётная запись', 'login', 'username', 'user'],
    }),
    field.email('email', 'Email', { search: true, filter: 'contains', aliases: ['Email', 'Почта', 'e-mail'] }),
    field.phone('phone', 'Телефон', { filter: 'contains', aliases: ['Телефон', 'phone'] }),
    field.enum(
      'password_kind',
      'Пароль в утечке',
      [
        { value: 'plain', label: 'Открытый текст' },
        { value: 'hash', label: 'Хеш' },
        { value: 'none', label: 'Нет' },
      ],
      { aliases: ['Пароль', 'Тип пароля', 'password', 'password type'] },
    ),
    field.string('leak_name', 'Утечка', {
      search: true,
      filter: 'contains',
      aliases: ['Утечка', 'Название утечки', 'Источник утечки', 'leak', 'leak name', 'breach'],
    }),
    field.string('service', 'Сервис', { search: true, filter: 'contains', aliases: ['Сервис', 'Ресурс', 'service', 'site'] }),
    field.date('leaked_at', 'Дата утечки', { aliases: ['Дата утечки', 'leak date', 'breach date'] }),
  ],
  columns: ['id', 'login', 'email', 'leak_name', 'service', 'password_kind', 'status_id', 'priority_id', 'tags', 'created_at'],
  fingerprint: ['login', 'leak_name'],
  title: (d) => `${String(d.login ?? '')}${d.leak_name ? ` — ${String(d.leak_name)}` : ''}`,
  extras: ['linked_leaks'],
  sample: (n) => ({
    login: `client${n}@mail.ru`,
    email: `client${n}@mail.ru`,
    password_kind: 'hash',
    leak_name: 'Утечка интернет-магазина 2025',
    service: 'shop.example.ru',
    leaked_at: '2025-06-01',
  }),
};

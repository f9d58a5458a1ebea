import { TAKEDOWN_DECISIONS } from '../common';
import { field, PLATFORM_OPTIONS } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const brand: ModuleDescriptor<'brand'> = {
  ...section('brand'),
  description: 'Незаконное использование бренда: поддельные страницы, аккаунты, приложения и реклама.',
  fields: [
    field.string('brand_name', 'Бренд', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Бренд', 'Торговая марка', 'brand', 'brand name'],
    }),
    field.url('url', 'Ссылка', { required: true, search: true, filter: 'contains', aliases: ['Ссылка', 'URL', 'link', 'url'] }),
    field.enum('platform', 'Площадка', PLATFORM_OPTIONS, { aliases: ['Площадка', 'Платформа', 'platform'] }),
    field.string('account_name', 'Аккаунт / страница', {
      indicator: 'account',
      search: true,
      filter: 'contains',
      aliases: ['Аккаунт', 'Страница', 'account', 'page'],
    }),
    field.integer('followers', 'Подписчики', { filter: 'range', aliases: ['Подписчики', 'followers', 'subscribers'] }),
    field.text('description', 'Описание', { search: true, aliases: ['Описание', 'Комментарий', 'description'] }),
  ],
  columns: [
    'id',
    'brand_name',
    'url',
    'platform',
    'account_name',
    'status_id',
    'priority_id',
    'decision_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['url'],
  title: (d) => `${String(d.brand_name ?? '')}: ${String(d.url ?? '')}`,
  decisions: TAKEDOWN_DECISIONS,
  actions: [
    { code: 'takedown', label: 'Запрос на удаление' },
    { code: 'report_platform', label: 'Жалоба площадке' },
  ],
  extras: ['decisions', 'actions'],
  sample: (n) => ({
    brand_name: 'Сбербанк',
    url: `https://vk.com/sber_bonus_${n}`,
    platform: 'social',
    account_name: `Сбер Бонусы ${n}`,
    followers: 100 + n,
    description: 'Группа раздаёт «бонусы» и собирает данные карт.',
  }),
};

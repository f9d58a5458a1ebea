import { CONNOTATION_LABELS, optionsOf } from '../common';
import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const media: ModuleDescriptor<'media'> = {
  ...section('media'),
  description: 'Публикации о компании в СМИ, блогах и каналах с оценкой тональности.',
  fields: [
    field.url('url', 'Ссылка', { required: true, search: true, filter: 'contains', aliases: ['Ссылка', 'URL', 'link', 'url'] }),
    field.string('media_name', 'Издание', {
      search: true,
      filter: 'contains',
      aliases: ['Издание', 'СМИ', 'Источник', 'media', 'outlet'],
    }),
    field.ref('media_type_id', 'Тип СМИ', 'media_types', { aliases: ['Тип СМИ', 'Тип', 'media type'] }),
    field.string('headline', 'Заголовок публикации', {
      search: true,
      listWidth: 240,
      aliases: ['Заголовок публикации', 'Заголовок статьи', 'headline'],
    }),
    field.text('summary', 'Краткое содержание', {
      search: true,
      aliases: ['Содержание', 'Краткое содержание', 'Текст', 'summary', 'text'],
    }),
    field.enum('connotation', 'Тональность', optionsOf(CONNOTATION_LABELS), {
      aliases: ['Тональность', 'Окраска', 'sentiment', 'connotation'],
    }),
    field.datetime('published_at', 'Дата публикации', { aliases: ['Дата публикации', 'Опубликовано', 'published', 'date'] }),
    field.string('article_author', 'Автор публикации', {
      search: true,
      filter: 'contains',
      aliases: ['Автор', 'Автор публикации', 'author'],
    }),
    field.integer('reach', 'Охват', { filter: 'range', aliases: ['Охват', 'Просмотры', 'reach', 'views'] }),
  ],
  columns: [
    'id',
    'headline',
    'media_name',
    'media_type_id',
    'connotation',
    'published_at',
    'reach',
    'status_id',
    'priority_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['url'],
  title: (d) => String(d.headline ?? d.url ?? ''),
  extras: ['media_types'],
  classify: { kind: 'sentiment', fields: ['headline', 'summary'] },
  sample: (n) => ({
    url: `https://www.rbc.ru/finances/2026/03/${n}`,
    media_name: 'РБК',
    headline: `Клиенты банка пожаловались на сбой в приложении (${n})`,
    summary: 'Пользователи сообщили о проблемах со входом в мобильное приложение.',
    connotation: ['Negative', 'Neutral', 'Positive', 'Undefined'][n % 4],
    published_at: '2026-03-01T09:30:00Z',
    article_author: 'Анна Смирнова',
    reach: 15000 + n,
  }),
};

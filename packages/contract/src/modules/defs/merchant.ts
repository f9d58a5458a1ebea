import { EVENT_MSG } from '../common';
import { field } from '../fields';
import { section } from '../sections';
import type { FieldOption, ModuleDescriptor } from '../types';

export const BREACH_CATEGORIES: readonly FieldOption[] = [
  { value: 'gambling', label: 'Азартные игры' },
  { value: 'crypto', label: 'Криптовалюта' },
  { value: 'adult', label: 'Контент 18+' },
  { value: 'drugs', label: 'Запрещённые вещества' },
  { value: 'fraud', label: 'Мошенничество' },
  { value: 'transit', label: 'Транзитные платежи' },
  { value: 'counterfeit', label: 'Контрафакт' },
  { value: 'other', label: 'Другое' },
];

export const QUESTIONABLE_CATEGORIES: readonly FieldOption[] = [
  { value: 'mcc_mismatch', label: 'Несоответствие MCC' },
  { value: 'no_site', label: 'Сайт недоступен' },
  { value: 'shell_company', label: 'Признаки фирмы-однодневки' },
  { value: 'high_chargeback', label: 'Высокий уровень чарджбэков' },
  { value: 'p2p', label: 'Переводы между физлицами' },
  { value: 'other', label: 'Другое' },
];

export const merchant: ModuleDescriptor<'merchant'> = {
  ...section('merchant'),
  description: 'Контроль торговых точек: нарушения правил эквайринга и сомнительная деятельность.',
  fields: [
    field.string('merchant_name', 'Мерчант', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Мерчант', 'ТСП', 'Торговая точка', 'merchant', 'merchant name'],
    }),
    field.string('mid', 'MID', { max: 32, filter: 'eq', aliases: ['MID', 'Merchant ID', 'ID мерчанта'] }),
    field.url('site_url', 'Сайт', { search: true, filter: 'contains', aliases: ['Сайт', 'URL', 'site', 'website'] }),
    field.string('mcc', 'MCC', { max: 4, pattern: [/^\d{4}$/, EVENT_MSG.mcc], filter: 'eq', aliases: ['MCC', 'mcc'] }),
    field.inn('inn', 'ИНН', { aliases: ['ИНН', 'inn'] }),
    field.enum('breach_category', 'Категория нарушения', BREACH_CATEGORIES, {
      aliases: ['Категория нарушения', 'Нарушение', 'breach category', 'breach'],
    }),
    field.enum('questionable_category', 'Сомнительная категория', QUESTIONABLE_CATEGORIES, {
      aliases: ['Сомнительная категория', 'questionable category'],
    }),
    field.string('acquirer', 'Банк-эквайер', {
      search: true,
      filter: 'contains',
      aliases: ['Эквайер', 'Банк-эквайер', 'acquirer'],
    }),
    field.text('description', 'Описание', { search: true, aliases: ['Описание', 'description'] }),
  ],
  columns: [
    'id',
    'merchant_name',
    'mid',
    'site_url',
    'mcc',
    'breach_category',
    'questionable_category',
    'status_id',
    'priority_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['merchant_name', 'site_url', 'mid'],
  title: (d) => String(d.merchant_name ?? ''),
  extras: ['merchant_categories'],
  whitelistName: 'merchant_name',
  sample: (n) => ({
    merchant_name: `ИП Сидоров ${n}`,
    mid: `7800${String(n).padStart(8, '0')}`,
    site_url: `https://casino-luck${n}.ru`,
    mcc: '5999',
    breach_category: 'gambling',
    questionable_category: 'mcc_mismatch',
    acquirer: 'АО «Банк»',
  }),
};

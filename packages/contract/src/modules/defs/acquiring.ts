import { field } from '../fields';
import { sampleCard } from '../samples';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const PAYMENT_SYSTEMS = [
  { value: 'mir', label: 'МИР' },
  { value: 'visa', label: 'Visa' },
  { value: 'mastercard', label: 'Mastercard' },
  { value: 'unionpay', label: 'UnionPay' },
  { value: 'other', label: 'Другая' },
] as const;

/** Payment system by the card's BIN ranges. */
export function paymentSystemOf(digits: string): string {
  const p2 = Number(digits.slice(0, 2));
  const p4 = Number(digits.slice(0, 4));
  if (p4 >= 2200 && p4 <= 2204) return 'mir';
  if (digits.startsWith('4')) return 'visa';
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'mastercard';
  if (p2 === 62) return 'unionpay';
  return 'other';
}

export const acquiring: ModuleDescriptor<'acquiring'> = {
  ...section('acquiring'),
  description: 'Скомпрометированные платёжные карты клиентов, найденные в открытых источниках.',
  fields: [
    field.card('card_number', 'Номер карты', {
      required: true,
      aliases: ['Номер карты', 'Карта', 'PAN', 'card', 'card number', 'card_number'],
      hint: 'Хранится зашифрованным, в списках показывается маской',
    }),
    field.derived('card_bin', 'BIN карты', 'string', { filter: 'eq', indicator: 'bin' }),
    field.derived('payment_system', 'Платёжная система', 'enum', { filter: 'in' }, { options: PAYMENT_SYSTEMS }),
    field.string('card_holder', 'Держатель', {
      search: true,
      filter: 'contains',
      aliases: ['Держатель', 'Владелец карты', 'holder', 'cardholder'],
    }),
    field.string('expiry', 'Срок действия', {
      max: 5,
      pattern: [/^(0[1-9]|1[0-2])\/\d{2}$/, 'Срок действия — ММ/ГГ'],
      aliases: ['Срок действия', 'expiry', 'exp'],
    }),
    field.string('bank', 'Банк-эмитент', {
      search: true,
      filter: 'contains',
      aliases: ['Банк', 'Банк-эмитент', 'issuer', 'bank'],
    }),
    field.url('source_url', 'Где найдено', { search: true, aliases: ['Источник', 'Где найдено', 'source', 'source url'] }),
  ],
  columns: [
    'id',
    'card_number',
    'payment_system',
    'card_holder',
    'bank',
    'source',
    'status_id',
    'priority_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['card_number'],
  title: (d) => `Карта ${String(d.card_number ?? '').slice(0, 4)} **** ${String(d.card_number ?? '').slice(-4)}`,
  derive: (d) =>
    typeof d.card_number === 'string'
      ? { payment_system: paymentSystemOf(d.card_number), card_bin: d.card_number.replace(/\D/g, '').slice(0, 6) }
      : {},
  extras: ['card_reveal'],
  sample: (n) => ({
    card_number: sampleCard(n, n % 2 ? '427600' : '220220'),
    card_holder: 'IVAN PETROV',
    expiry: '08/28',
    bank: 'ПАО Сбербанк',
    source_url: `https://t.me/cards_market/${n}`,
  }),
};

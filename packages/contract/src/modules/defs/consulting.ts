import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const consulting: ModuleDescriptor<'consulting'> = {
  ...section('consulting'),
  description: 'Запросы компании на расследование и аналитику и ответы по ним.',
  fields: [
    field.string('subject', 'Тема', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Тема', 'Запрос', 'subject', 'topic'],
    }),
    field.enum(
      'consulting_type',
      'Вид работ',
      [
        { value: 'investigation', label: 'Расследование' },
        { value: 'analysis', label: 'Аналитика' },
        { value: 'recommendation', label: 'Рекомендации' },
        { value: 'other', label: 'Другое' },
      ],
      { aliases: ['Вид работ', 'Тип', 'type'] },
    ),
    field.string('requester', 'Инициатор', { search: true, filter: 'contains', aliases: ['Инициатор', 'Заказчик', 'requester'] }),
    field.email('contact_email', 'Email для связи', { aliases: ['Email', 'Почта', 'contact email'] }),
    field.date('due_at', 'Срок', { aliases: ['Срок', 'Дедлайн', 'due', 'deadline'] }),
    field.text('description', 'Описание', { search: true, aliases: ['Описание', 'description'] }),
    field.text('answer', 'Ответ', { search: true, aliases: ['Ответ', 'Заключение', 'answer'] }),
  ],
  columns: ['id', 'subject', 'consulting_type', 'requester', 'due_at', 'status_id', 'priority_id', 'tags', 'created_at'],
  fingerprint: ['subject', 'requester', 'due_at'],
  title: (d) => String(d.subject ?? ''),
  extras: [],
  sample: (n) => ({
    subject: `Проверка контрагента №${n}`,
    consulting_type: 'investigation',
    requester: 'Служба безопасности',
    contact_email: 'sb@example-bank.ru',
    due_at: '2026-04-01',
    description: 'Проверить связь контрагента с мошенническими схемами.',
  }),
};

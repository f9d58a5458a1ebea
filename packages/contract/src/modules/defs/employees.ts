import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const employees: ModuleDescriptor<'employees'> = {
  ...section('employees'),
  description: 'Данные сотрудников в открытом доступе: учётные данные, резюме, профили, персональные данные.',
  fields: [
    field.string('full_name', 'ФИО', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['ФИО', 'Сотрудник', 'Имя', 'full name', 'name', 'employee'],
    }),
    field.email('email', 'Email', {
      search: true,
      filter: 'contains',
      aliases: ['Email', 'Почта', 'Электронная почта', 'e-mail', 'email'],
    }),
    field.phone('phone', 'Телефон', { filter: 'contains', aliases: ['Телефон', 'phone', 'mobile'] }),
    field.string('position', 'Должность', { search: true, filter: 'contains', aliases: ['Должность', 'position', 'job title'] }),
    field.string('department', 'Подразделение', {
      search: true,
      filter: 'contains',
      aliases: ['Подразделение', 'Отдел', 'department'],
    }),
    field.enum(
      'exposure',
      'Тип находки',
      [
        { value: 'credentials', label: 'Учётные данные' },
        { value: 'personal_data', label: 'Персональные данные' },
        { value: 'resume', label: 'Резюме' },
        { value: 'social_profile', label: 'Профиль в соцсети' },
        { value: 'other', label: 'Другое' },
      ],
      { aliases: ['Тип находки', 'Тип', 'exposure', 'type'] },
    ),
    field.url('url', 'Ссылка', { search: true, aliases: ['Ссылка', 'URL', 'link'] }),
  ],
  columns: ['id', 'full_name', 'email', 'position', 'department', 'exposure', 'status_id', 'priority_id', 'tags', 'created_at'],
  fingerprint: ['full_name', 'email', 'exposure', 'url'],
  title: (d) => `${String(d.full_name ?? '')}${d.email ? ` <${String(d.email)}>` : ''}`,
  extras: [],
  sample: (n) => ({
    full_name: `Иванова Мария Сергеевна ${n}`,
    email: `m.ivanova${n}@example-bank.ru`,
    phone: '+7 (912) 345-67-89',
    position: 'Главный специалист',
    department: 'Казначейство',
    exposure: 'credentials',
  }),
};

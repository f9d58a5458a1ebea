import { z } from 'zod';
import { EVENT_MSG } from '../common';
import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const services: ModuleDescriptor<'services'> = {
  ...section('services'),
  description: 'Сервисы компании, доступные из интернета: открытые порты, уязвимое ПО, панели управления.',
  fields: [
    field.host('host', 'Хост', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Хост', 'Адрес', 'IP', 'host', 'ip'],
    }),
    field.integer('port', 'Порт', { required: true, min: 1, max: 65535, filter: 'eq', aliases: ['Порт', 'port'] }),
    field.enum(
      'protocol',
      'Протокол',
      [
        { value: 'tcp', label: 'TCP' },
        { value: 'udp', label: 'UDP' },
      ],
      { aliases: ['Протокол', 'protocol', 'transport'] },
    ),
    field.string('service_name', 'Сервис', { search: true, filter: 'contains', aliases: ['Сервис', 'Служба', 'service'] }),
    field.string('product', 'ПО и версия', {
      search: true,
      filter: 'contains',
      aliases: ['ПО', 'Продукт', 'Версия', 'product', 'software'],
    }),
    field.stringList('vulnerabilities', 'Уязвимости (CVE)', {
      search: true,
      item: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^CVE-\d{4}-\d{4,7}$/, { error: EVENT_MSG.cve }),
      aliases: ['Уязвимости', 'CVE', 'vulnerabilities', 'cves'],
    }),
    field.text('banner', 'Баннер', { search: true, aliases: ['Баннер', 'banner'] }),
  ],
  columns: ['id', 'host', 'port', 'protocol', 'service_name', 'product', 'status_id', 'priority_id', 'tags', 'created_at'],
  fingerprint: ['host', 'port', 'protocol'],
  title: (d) => `${String(d.service_name ?? 'Сервис')} ${String(d.host ?? '')}:${String(d.port ?? '')}`,
  extras: [],
  sample: (n) => ({
    host: `vpn${n}.example-bank.ru`,
    port: 3389,
    protocol: 'tcp',
    service_name: 'RDP',
    product: 'Microsoft Terminal Services',
    vulnerabilities: ['CVE-2019-0708'],
  }),
};

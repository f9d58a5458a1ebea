import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

const ATTACK_TYPES = [
  { value: 'ddos', label: 'DDoS' },
  { value: 'scan', label: 'Сканирование' },
  { value: 'bruteforce', label: 'Подбор паролей' },
  { value: 'exploit', label: 'Эксплуатация уязвимости' },
  { value: 'botnet', label: 'Ботнет' },
  { value: 'other', label: 'Другое' },
];

export const networkattacks: ModuleDescriptor<'networkattacks'> = {
  ...section('networkattacks'),
  description: 'Сетевые атаки на инфраструктуру компании: DDoS, сканирование, подбор паролей.',
  fields: [
    field.enum('attack_type', 'Тип атаки', ATTACK_TYPES, {
      required: true,
      aliases: ['Тип атаки', 'Тип', 'attack type', 'type'],
    }),
    field.ip('source_ip', 'IP источника', {
      required: true,
      filter: 'eq',
      search: true,
      aliases: ['IP источника', 'Источник', 'source ip', 'src ip', 'attacker'],
    }),
    field.host('target', 'Цель', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Цель', 'Хост', 'target', 'dst'],
    }),
    field.integer('target_port', 'Порт', { min: 1, max: 65535, filter: 'eq', aliases: ['Порт', 'port', 'dst port'] }),
    field.enum(
      'protocol',
      'Протокол',
      ['tcp', 'udp', 'icmp', 'http'].map((p) => ({ value: p, label: p.toUpperCase() })),
      { aliases: ['Протокол', 'protocol'] },
    ),
    field.datetime('attack_started_at', 'Начало атаки', { aliases: ['Начало', 'Начало атаки', 'start', 'started'] }),
    field.datetime('attack_ended_at', 'Окончание атаки', { aliases: ['Окончание', 'Окончание атаки', 'end', 'ended'] }),
    field.number('peak_gbps', 'Пик, Гбит/с', { min: 0, filter: 'range', aliases: ['Пик', 'Пиковая нагрузка', 'peak', 'gbps'] }),
    field.string('country', 'Страна источника', { filter: 'contains', aliases: ['Страна', 'country'] }),
  ],
  columns: [
    'id',
    'attack_type',
    'source_ip',
    'target',
    'target_port',
    'attack_started_at',
    'peak_gbps',
    'status_id',
    'priority_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['attack_type', 'source_ip', 'target', 'attack_started_at'],
  title: (d) =>
    `${ATTACK_TYPES.find((a) => a.value === d.attack_type)?.label ?? 'Атака'}: ${String(d.source_ip ?? '')} → ${String(d.target ?? '')}`,
  extras: [],
  sample: (n) => ({
    attack_type: 'ddos',
    source_ip: `45.${n % 256}.${(n * 5) % 256}.${(n % 250) + 1}`,
    target: 'online.example-bank.ru',
    target_port: 443,
    protocol: 'tcp',
    attack_started_at: `2026-03-0${(n % 9) + 1}T02:00:00Z`,
    attack_ended_at: `2026-03-0${(n % 9) + 1}T03:30:00Z`,
    peak_gbps: 12.5,
    country: 'Нидерланды',
  }),
};

import { FUZZER_LABELS } from '../../fuzzers';
import { isCyrillicHost, punycodeToUnicode, unicodeToPunycode, urlHost } from '../../helpers';
import { optionsOf, PROVIDER_LABELS, TAKEDOWN_DECISIONS } from '../common';
import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

const ZONES = ['ru', 'com', 'online', 'site', 'net'];

export const domains: ModuleDescriptor<'domains'> = {
  ...section('domains'),
  description: 'Похожие и фишинговые домены, использующие бренд компании.',
  fields: [
    field.domain('domain', 'Домен', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Домен', 'Доменное имя', 'Адрес', 'domain', 'domain name', 'host', 'hostname'],
      hint: 'Кириллические домены принимаются как есть или в punycode (xn--…); без столбца домена он берётся из URL',
      // Feeds of URLs alone (PhishTank, URLhaus, OpenPhish): the domain is the URL's host.
      fillFrom: { field: 'url', read: urlHost },
    }),
    field.derived('domain_punycode', 'Домен (punycode)', 'string', { search: true, filter: 'eq' }),
    field.derived('is_cyrillic', 'Кириллический', 'boolean', { filter: 'bool' }),
    field.url('url', 'URL', { search: true, aliases: ['URL', 'Ссылка', 'link'] }),
    field.ip('ip', 'IP-адрес', { search: true, filter: 'eq', aliases: ['IP', 'IP-адрес', 'IP адрес', 'ip address'] }),
    field.string('registrar', 'Регистратор', {
      indicator: 'registrar',
      search: true,
      filter: 'contains',
      aliases: ['Регистратор', 'registrar'],
    }),
    field.date('registered_at', 'Дата регистрации', {
      aliases: ['Дата регистрации', 'Зарегистрирован', 'registered', 'creation date', 'registered_at'],
    }),
    // RDAP status values of the domain (RFC 9083 §10.2.2), in Russian («передача запрещена регистратором, …»), filled by discovery.
    field.string('registration_status', 'Статус регистрации', {
      search: true,
      filter: 'contains',
      max: 1000,
      aliases: ['Статус регистрации', 'Статус домена', 'registration status', 'domain status'],
    }),
    field.date('expires_at', 'Оплачен до', {
      aliases: ['Оплачен до', 'Дата окончания', 'expires', 'expiration date', 'expires_at'],
    }),
    field.string('hosting', 'Хостинг', {
      search: true,
      filter: 'contains',
      aliases: ['Хостинг', 'Хостинг-провайдер', 'hosting', 'asn'],
    }),
    field.string('page_title', 'Заголовок страницы', { search: true, aliases: ['Заголовок страницы', 'page title'] }),
    field.integer('http_status', 'HTTP-статус', {
      min: 100,
      max: 599,
      filter: 'eq',
      aliases: ['HTTP-статус', 'Код ответа', 'http status', 'status code'],
    }),
    field.integer('similarity', 'Схожесть, %', {
      min: 0,
      max: 100,
      filter: 'range',
      aliases: ['Схожесть', 'Схожесть, %', 'similarity'],
    }),
    field.enum('provider', 'Провайдер', optionsOf(PROVIDER_LABELS), { aliases: ['Провайдер', 'provider'] }),
    // Filled by discovery (#17): the permutation that found the domain, its DNS and the run.
    field.enum('fuzzer', 'Метод подбора', optionsOf(FUZZER_LABELS), { aliases: ['Метод подбора', 'fuzzer'] }),
    field.string('asset', 'Защищаемый актив', { filter: 'eq', aliases: ['Защищаемый актив', 'asset'] }),
    field.boolean('mx', 'Есть MX', { filter: 'bool', aliases: ['Есть MX', 'MX', 'mx'] }),
    field.string('ns', 'NS-серверы', { search: true, max: 2000, aliases: ['NS-серверы', 'NS', 'ns'] }),
    field.integer('discovery_run', 'Запуск поиска', { min: 1, filter: 'eq', aliases: ['Запуск поиска', 'discovery run'] }),
    // Filled by the CT monitor: the certificate that named the domain.
    field.string('ct_issuer', 'Издатель сертификата', { search: true, max: 1000, aliases: ['Издатель сертификата', 'issuer'] }),
    field.datetime('ct_not_before', 'Сертификат действует с', { aliases: ['Сертификат действует с', 'not before'] }),
    field.datetime('ct_not_after', 'Сертификат действует до', { aliases: ['Сертификат действует до', 'not after'] }),
    field.text('ct_names', 'Имена в сертификате', { max: 10000, aliases: ['Имена в сертификате', 'certificate names'] }),
  ],
  columns: [
    'id',
    'domain',
    'is_cyrillic',
    'ip',
    'registrar',
    'registered_at',
    'status_id',
    'priority_id',
    'decision_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['domain_punycode'],
  title: (d) => String(d.domain ?? ''),
  derive: (d) => {
    if (typeof d.domain !== 'string') return {};
    const unicode = punycodeToUnicode(d.domain.toLowerCase());
    return { domain: unicode, domain_punycode: unicodeToPunycode(unicode), is_cyrillic: isCyrillicHost(unicode) };
  },
  decisions: TAKEDOWN_DECISIONS,
  actions: [
    { code: 'takedown', label: 'Запрос на блокировку' },
    { code: 'report_netoscope', label: 'Сообщить в Нетоскоп', provider: 'Netoscope' },
    { code: 'recheck', label: 'Перепроверить' },
    { code: 'allowlist', label: 'Добавить в список разрешённых' },
  ],
  extras: ['decisions', 'actions', 'snapshots', 'allowlist'],
  classify: { kind: 'phishing', fields: ['domain', 'domain_punycode'], similarityField: 'similarity' },
  sample: (n) => ({
    domain: n % 3 === 1 ? `сбер-бонус${n}.рф` : `sber-bonus${n}.${ZONES[n % ZONES.length]}`,
    url: `https://sber-bonus${n}.ru/login`,
    ip: `185.${(n * 7) % 256}.${(n * 13) % 256}.${(n % 250) + 1}`,
    registrar: 'REG.RU',
    registered_at: '2026-01-15',
    similarity: 80 + (n % 20),
  }),
};

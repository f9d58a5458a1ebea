/*
 * Deterministic generator of realistic Russian events for every module (same seed → same events).
 * Every event's module fields pass the registry's create schema; identifying fields carry the
 * event's ordinal, so fingerprints never collide within a company. Used by the benchmarks and the demo.
 */
import {
  hasDecisions,
  type MlState,
  MODULE_CODES,
  MODULES,
  type ModuleCode,
  type Source,
  sampleCard,
  sampleInn,
  sampleOgrn,
} from '@forpost/contract/modules';
import { translit } from '../apps/api/src/lib/translit';

// ---------------------------------------------------------------------------
// Random source
// ---------------------------------------------------------------------------

interface Rng {
  /** [0, 1) */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(list: readonly T[]): T;
  /** Picks by weight: [[value, weight], …]. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T;
  chance(p: number): boolean;
}

/** mulberry32: tiny, fast, good enough for test data. */
function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)] as (typeof list)[number],
    weighted: (pairs) => {
      const total = pairs.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [v, w] of pairs) {
        r -= w;
        if (r < 0) return v;
      }
      return (pairs[pairs.length - 1] as readonly [unknown, number])[0] as never;
    },
    chance: (p) => next() < p,
  };
  return rng;
}

// ---------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------

const BRANDS = [
  { ru: 'Сбербанк', slug: 'sber', short: 'Сбер', domain: 'sberbank.ru', ceo: 'Греф Герман Оскарович' },
  { ru: 'ВТБ', slug: 'vtb', short: 'ВТБ', domain: 'vtb.ru', ceo: 'Костин Андрей Леонидович' },
  { ru: 'Т-Банк', slug: 'tbank', short: 'Т-Банк', domain: 'tbank.ru', ceo: 'Пьянов Станислав Александрович' },
  { ru: 'Альфа-Банк', slug: 'alfabank', short: 'Альфа', domain: 'alfabank.ru', ceo: 'Верин Владимир Иванович' },
  { ru: 'Газпромбанк', slug: 'gazprombank', short: 'ГПБ', domain: 'gazprombank.ru', ceo: 'Шаронов Андрей Владимирович' },
  { ru: 'Озон', slug: 'ozon', short: 'Ozon', domain: 'ozon.ru', ceo: 'Шульгин Александр Александрович' },
  { ru: 'Вайлдберриз', slug: 'wildberries', short: 'WB', domain: 'wildberries.ru', ceo: 'Бакальчук Татьяна Владимировна' },
  { ru: 'Госуслуги', slug: 'gosuslugi', short: 'Госуслуги', domain: 'gosuslugi.ru', ceo: 'Григоренко Дмитрий Юрьевич' },
] as const;
const LURES_RU = [
  'бонус',
  'выплата',
  'кэшбэк',
  'подарок',
  'вход',
  'лк',
  'поддержка',
  'возврат',
  'компенсация',
  'акция',
  'приз',
  'онлайн',
];
const LURES_EN = [
  'bonus',
  'pay',
  'cashback',
  'gift',
  'login',
  'lk',
  'support',
  'refund',
  'secure',
  'promo',
  'prize',
  'online',
  'verify',
  'id',
];
const ZONES = ['ru', 'ru', 'com', 'online', 'site', 'net', 'xyz', 'top', 'shop', 'info'];
const REGISTRARS = ['REG.RU', 'RU-CENTER', 'Beget', 'Timeweb', 'R01', 'Namecheap', 'GoDaddy', 'NameSilo'];
const HOSTINGS = ['Timeweb Cloud', 'Selectel', 'Beget', 'Cloudflare', 'DigitalOcean', 'Hetzner', 'OVH', 'Aeza', 'FirstByte'];
const MALE_NAMES = [
  'Александр',
  'Дмитрий',
  'Максим',
  'Сергей',
  'Андрей',
  'Алексей',
  'Иван',
  'Михаил',
  'Николай',
  'Павел',
  'Егор',
  'Артём',
];
const FEMALE_NAMES = [
  'Анна',
  'Мария',
  'Елена',
  'Ольга',
  'Наталья',
  'Екатерина',
  'Татьяна',
  'Ирина',
  'Светлана',
  'Юлия',
  'Дарья',
  'Ксения',
];
const SURNAMES = [
  'Иванов',
  'Смирнов',
  'Кузнецов',
  'Попов',
  'Васильев',
  'Петров',
  'Соколов',
  'Михайлов',
  'Новиков',
  'Фёдоров',
  'Морозов',
  'Волков',
  'Лебедев',
  'Козлов',
];
const PATRONYMICS_M = ['Александрович', 'Дмитриевич', 'Сергеевич', 'Андреевич', 'Иванович', 'Николаевич', 'Петрович', 'Олегович'];
const PATRONYMICS_F = ['Александровна', 'Дмитриевна', 'Сергеевна', 'Андреевна', 'Ивановна', 'Николаевна', 'Петровна', 'Олеговна'];
const POSITIONS = [
  'Главный специалист',
  'Ведущий инженер',
  'Руководитель направления',
  'Менеджер по работе с клиентами',
  'Аналитик',
  'Бухгалтер',
  'Начальник отдела',
  'Администратор систем',
  'Разработчик',
];
const DEPARTMENTS = [
  'Казначейство',
  'ИТ-департамент',
  'Розничный бизнес',
  'Служба безопасности',
  'Бухгалтерия',
  'Отдел кадров',
  'Контакт-центр',
  'Юридический департамент',
];
const CITIES = [
  'г. Москва',
  'г. Санкт-Петербург',
  'г. Новосибирск',
  'г. Екатеринбург',
  'г. Казань',
  'г. Нижний Новгород',
  'г. Краснодар',
  'г. Самара',
];
const STREETS = [
  'ул. Ленина',
  'пр-т Мира',
  'ул. Садовая',
  'ул. Гагарина',
  'Ленинградское ш.',
  'ул. Профсоюзная',
  'Невский пр-т',
  'ул. Пушкина',
];
const LEAKS = [
  'Утечка СДЭК 2022',
  'Утечка Яндекс.Еды 2022',
  'Утечка Gemotest 2022',
  'Утечка «Спортмастер» 2023',
  'Утечка Tele2 2023',
  'Комболист Collection #1',
  'Логи стилера RedLine 2024',
  'Утечка Delivery Club 2022',
];
const OUTLETS = [
  { name: 'РБК', host: 'www.rbc.ru' },
  { name: 'Коммерсантъ', host: 'www.kommersant.ru' },
  { name: 'Ведомости', host: 'www.vedomosti.ru' },
  { name: 'ТАСС', host: 'tass.ru' },
  { name: 'Интерфакс', host: 'www.interfax.ru' },
  { name: 'Лента.ру', host: 'lenta.ru' },
  { name: 'Фонтанка', host: 'www.fontanka.ru' },
  { name: 'Банки.ру', host: 'www.banki.ru' },
  { name: 'vc.ru', host: 'vc.ru' },
  { name: 'Хабр', host: 'habr.com' },
];
const HEADLINES = [
  'Клиенты {brand} пожаловались на сбой в мобильном приложении',
  'Мошенники используют имя {brand} для кражи данных карт',
  '{brand} запустил новую программу лояльности',
  'Эксперты обнаружили фишинговые сайты под видом {brand}',
  'Акции {brand} выросли после публикации отчётности',
  'В сети появились данные клиентов, связанные с {brand}',
  '{brand} предупредил о новой схеме телефонного мошенничества',
  'Суд обязал {brand} вернуть клиенту списанные средства',
  'Phishing campaign targets {slug} customers with fake bonuses',
  'Аналитики оценили устойчивость {brand} к кибератакам',
];
const SUMMARIES = [
  'Пользователи сообщили о проблемах со входом и переводами в течение нескольких часов.',
  'Злоумышленники рассылают сообщения с предложением получить компенсацию по ссылке.',
  'Компания заявила, что данные клиентов не пострадали, проверка продолжается.',
  'Мошеннические страницы копируют дизайн официального сайта и собирают логины и пароли.',
  'Представители компании рекомендовали не переходить по ссылкам из сообщений.',
  'Attackers impersonate the bank support service and ask for one-time codes.',
];
const COUNTRIES = ['Нидерланды', 'Германия', 'США', 'Китай', 'Сингапур', 'Бразилия', 'Вьетнам', 'Индия', 'Россия', 'Турция'];
const TECHS = [
  'Spring Boot',
  'Django',
  'Laravel',
  'Node.js Express',
  'nginx',
  'Apache Tomcat',
  'ASP.NET',
  '1С-Битрикс',
  'WordPress',
  'Grafana',
];

/** A name as it appears in logins and addresses: transliterated, letters and digits only. */
const latin = (s: string) => translit(s).replace(/[^a-z0-9]+/g, '');

const ip4 = (r: Rng) =>
  `${r.pick([5, 31, 37, 45, 77, 79, 82, 85, 91, 95, 109, 141, 176, 178, 185, 188, 193, 194, 195, 212, 217])}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;
const pad2 = (n: number) => String(n).padStart(2, '0');
const day = (r: Rng, fromYear: number, toYear: number) =>
  `${r.int(fromYear, toYear)}-${pad2(r.int(1, 12))}-${pad2(r.int(1, 28))}`;

function person(r: Rng) {
  const male = r.chance(0.5);
  const surname = r.pick(SURNAMES) + (male ? '' : 'а');
  const name = r.pick(male ? MALE_NAMES : FEMALE_NAMES);
  const patronymic = r.pick(male ? PATRONYMICS_M : PATRONYMICS_F);
  return { full: `${surname} ${name} ${patronymic}`, surname, name };
}
const phone = (r: Rng) => `+7 (9${r.int(0, 9)}${r.int(0, 9)}) ${r.int(100, 999)}-${pad2(r.int(0, 99))}-${pad2(r.int(0, 99))}`;

// ---------------------------------------------------------------------------
// Module fields
// ---------------------------------------------------------------------------

type Gen = (r: Rng, i: number) => Record<string, unknown>;

/**
 * Realistic vocabularies for the modules that have one (the search and list benchmarks need varied
 * text). A module without one gets its descriptor's `sample` (see `fieldsOf`): a new module needs
 * nothing here.
 */
const REALISTIC: Partial<Record<ModuleCode, Gen>> = {
  domains: (r, i) => {
    const b = r.pick(BRANDS);
    const cyr = r.chance(0.15);
    const domain = cyr
      ? `${b.short.toLowerCase().replace(/[^а-яёa-z]/g, '')}-${r.pick(LURES_RU)}${i}.рф`
      : `${b.slug}-${r.pick(LURES_EN)}${i}.${r.pick(ZONES)}`;
    const status = r.pick([200, 200, 200, 200, 301, 302, 403, 404, 503]);
    return {
      domain,
      url: `https://${domain}/${r.pick(['login', 'lk', 'bonus', 'auth', ''])}`,
      ip: ip4(r),
      registrar: r.pick(REGISTRARS),
      registered_at: day(r, 2024, 2026),
      ...(r.chance(0.7) ? { expires_at: day(r, 2026, 2027) } : {}),
      hosting: r.pick(HOSTINGS),
      page_title:
        status === 200
          ? `${b.ru} — ${r.pick(['Вход в личный кабинет', 'Получите бонус', 'Подтвердите данные карты', 'Онлайн-банк'])}`
          : undefined,
      http_status: status,
      similarity: r.int(55, 100),
      ...(r.chance(0.2) ? { provider: 'Netoscope' } : {}),
    };
  },
  brand: (r, i) => {
    const b = r.pick(BRANDS);
    const platform = r.pick(['social', 'telegram', 'marketplace', 'app_store', 'ads', 'website'] as const);
    const handle = `${b.slug}_${r.pick(LURES_EN)}_${i}`;
    const url = {
      social: `https://vk.com/${handle}`,
      telegram: `https://t.me/${handle}`,
      marketplace: `https://www.avito.ru/moskva/uslugi/${handle}`,
      app_store: `https://apps.rustore.ru/app/ru.${b.slug}.${r.pick(LURES_EN)}${i}`,
      ads: `https://yandex.ru/adv/${handle}`,
      website: `https://${b.slug}-${r.pick(LURES_EN)}${i}.ru`,
    }[platform];
    return {
      brand_name: b.ru,
      url,
      platform,
      account_name: `${b.ru} ${r.pick(['Бонусы', 'Поддержка', 'Официальный', 'Выплаты', 'Розыгрыш'])}`,
      followers: r.int(10, 50_000),
      description: r.pick([
        'Группа раздаёт «бонусы» и собирает данные карт.',
        'Поддельная служба поддержки просит коды из СМС.',
        'Приложение копирует интерфейс официального.',
        'Реклама ведёт на фишинговую страницу.',
      ]),
    };
  },
  management: (r, i) => {
    const b = r.pick(BRANDS);
    const platform = r.pick(['telegram', 'social', 'website'] as const);
    const handle = `${latin(b.ceo.split(' ')[0] ?? 'ceo')}_${r.pick(['official', 'ceo', 'priv', 'fond'])}_${i}`;
    return {
      person_name: b.ceo,
      position: r.pick(['Президент, председатель правления', 'Генеральный директор', 'Основатель']),
      url:
        platform === 'telegram'
          ? `https://t.me/${handle}`
          : platform === 'social'
            ? `https://vk.com/${handle}`
            : `https://${handle.replace(/_/g, '-')}.ru`,
      platform,
      account_name: `@${handle}`,
      description: r.pick([
        'Канал от имени руководителя обещает инвестиционный доход.',
        'Аккаунт рассылает предложения о «закрытой продаже акций».',
        'Страница собирает пожертвования от имени руководителя.',
      ]),
    };
  },
  databases: (r, i) => {
    const [type, port] = r.pick([
      ['elasticsearch', 9200],
      ['mongodb', 27017],
      ['postgresql', 5432],
      ['mysql', 3306],
      ['redis', 6379],
      ['clickhouse', 8123],
    ] as const);
    return {
      db_name: `${r.pick(['clients', 'crm', 'loyalty', 'orders', 'staff', 'cards', 'leads'])}_${i}`,
      db_type: type,
      host: ip4(r),
      port,
      records_count: r.int(1_000, 20_000_000),
      size_mb: Math.round(r.next() * 50_000) / 10,
      exposed_fields: r.pick([
        'ФИО, телефон, email',
        'ФИО, паспорт, адрес',
        'логин, хеш пароля',
        'номер договора, сумма, телефон',
      ]),
    };
  },
  services: (r, i) => {
    const [port, name, product] = r.pick([
      [3389, 'RDP', 'Microsoft Terminal Services'],
      [22, 'SSH', 'OpenSSH 7.4'],
      [445, 'SMB', 'Samba 4.6'],
      [21, 'FTP', 'vsftpd 2.3.4'],
      [5900, 'VNC', 'RealVNC 5.3'],
      [9000, 'HTTP', 'MinIO'],
      [8443, 'HTTPS', 'Fortinet FortiGate'],
      [1433, 'MS SQL', 'Microsoft SQL Server 2014'],
    ] as const);
    const cves: Record<number, string[]> = {
      3389: ['CVE-2019-0708'],
      445: ['CVE-2017-0144'],
      21: ['CVE-2011-2523'],
      8443: ['CVE-2024-21762'],
      22: ['CVE-2023-38408'],
    };
    return {
      host: r.chance(0.5) ? ip4(r) : `${r.pick(['vpn', 'mail', 'rdp', 'ftp', 'dev', 'test'])}${i}.${r.pick(BRANDS).domain}`,
      port,
      protocol: 'tcp',
      service_name: name,
      product,
      ...(cves[port] && r.chance(0.6) ? { vulnerabilities: cves[port] } : {}),
      banner: `${name} ${product}`,
    };
  },
  acquiring: (r, i) => {
    const [bin, bank] = r.pick([
      ['220220', 'ПАО Сбербанк'],
      ['427601', 'ПАО Сбербанк'],
      ['546901', 'ПАО Сбербанк'],
      ['220070', 'АО «ТБанк»'],
      ['553691', 'АО «ТБанк»'],
      ['220024', 'Банк ВТБ (ПАО)'],
      ['415428', 'АО «Альфа-Банк»'],
    ] as const);
    const p = person(r);
    return {
      card_number: sampleCard(i, bin),
      card_holder: `${latin(p.name).toUpperCase()} ${latin(p.surname).toUpperCase()}`,
      expiry: `${pad2(r.int(1, 12))}/${r.int(26, 31)}`,
      bank,
      source_url: `https://t.me/${r.pick(['cards_shop', 'cvv_market', 'dumps_ru', 'bin_base'])}/${i}`,
    };
  },
  employees: (r, i) => {
    const p = person(r);
    return {
      full_name: p.full,
      email: `${latin(p.name)}.${latin(p.surname)}${i}@${r.pick(BRANDS).domain}`,
      ...(r.chance(0.4) ? { phone: phone(r) } : {}),
      position: r.pick(POSITIONS),
      department: r.pick(DEPARTMENTS),
      exposure: r.pick(['credentials', 'personal_data', 'resume', 'social_profile', 'other']),
      ...(r.chance(0.5) ? { url: `https://${r.pick(['hh.ru/resume', 'vk.com', 'github.com'])}/${latin(p.surname)}${i}` } : {}),
    };
  },
  firms: (r, i) => {
    const b = r.pick(BRANDS);
    const p = person(r);
    return {
      firm_name: `ООО «${b.ru} ${r.pick(['Инвест', 'Финанс', 'Групп', 'Капитал', 'Сервис', 'Консалт'])} ${i}»`,
      inn: sampleInn(i),
      ...(r.chance(0.8) ? { ogrn: sampleOgrn(i) } : {}),
      address: `${r.pick(CITIES)}, ${r.pick(STREETS)}, д. ${r.int(1, 150)}`,
      director: p.full,
      registered_at: day(r, 2023, 2026),
      okved: r.pick(['64.99', '66.19', '62.01', '47.91', '70.22', '64.92']),
      reason: r.pick([
        'Название сходно до степени смешения',
        'Использует товарный знак',
        'Адрес массовой регистрации',
        'Предлагает услуги от имени банка',
      ]),
    };
  },
  accounts: (r, i) => {
    const p = person(r);
    const email = `${latin(p.name)}${latin(p.surname)}${i}@${r.pick(['mail.ru', 'yandex.ru', 'gmail.com', 'bk.ru', 'inbox.ru'])}`;
    return {
      login: r.chance(0.8) ? email : `+79${String(100000000 + i).slice(-9)}`,
      ...(r.chance(0.8) ? { email } : {}),
      ...(r.chance(0.3) ? { phone: phone(r) } : {}),
      password_kind: r.weighted([
        ['hash', 5],
        ['plain', 3],
        ['none', 2],
      ] as const),
      leak_name: r.pick(LEAKS),
      service: r.pick(['shop.example.ru', 'cdek.ru', 'eda.yandex.ru', 'sportmaster.ru', 'tele2.ru', 'delivery-club.ru']),
      leaked_at: day(r, 2021, 2025),
    };
  },
  leaks: (r, i) => ({
    leak_name: `${r.pick(['Дамп CRM', 'База клиентов', 'Выгрузка заказов', 'Архив документов', 'Логи стилера'])} ${r.pick(BRANDS).ru} №${i}`,
    records_count: r.int(1_000, 30_000_000),
    leaked_at: day(r, 2022, 2026),
    source_url: `https://${r.pick(['breachforums', 'xss', 'exploit', 'dublikat'])}.example/thread/${i}`,
    data_types: r.pick(['ФИО, телефоны, email', 'паспортные данные', 'логины и хеши паролей', 'номера карт']),
    description: r.pick([
      'Продавец предлагает выборку бесплатно, полную базу — за криптовалюту.',
      'База выложена в открытый доступ.',
      'Данные частично совпадают с утечкой прошлого года.',
    ]),
  }),
  repositories: (r, i) => {
    const owner = `${r.pick(['dev', 'ivan', 'alex', 'test', 'contractor', 'intern'])}${i}`;
    const repo = `${r.pick(BRANDS).slug}-${r.pick(['api', 'backend', 'mobile', 'infra', 'scripts', 'config'])}`;
    const platform = r.weighted([
      ['github', 7],
      ['gitlab', 2],
      ['bitbucket', 1],
    ] as const);
    const host = { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org' }[platform];
    return {
      repo_url: `https://${host}/${owner}/${repo}`,
      platform,
      owner,
      repo_name: repo,
      matched_keywords: r.pick([
        'api_key, password',
        'internal.corp, jdbc:postgresql',
        'BEGIN RSA PRIVATE KEY',
        'token=, secret=',
      ]),
      secrets_found: r.chance(0.4),
    };
  },
  media: (r, i) => {
    const b = r.pick(BRANDS);
    const o = r.pick(OUTLETS);
    const headline = r.pick(HEADLINES).replace('{brand}', b.ru).replace('{slug}', b.slug);
    return {
      url: `https://${o.host}/${r.pick(['finances', 'technology', 'society', 'business'])}/${2024 + (i % 3)}/${i}`,
      media_name: o.name,
      headline,
      summary: r.pick(SUMMARIES),
      connotation: r.weighted([
        ['Negative', 4],
        ['Neutral', 4],
        ['Positive', 2],
        ['Undefined', 1],
      ] as const),
      published_at: `${day(r, 2025, 2026)}T${pad2(r.int(6, 22))}:${pad2(r.int(0, 59))}:00Z`,
      article_author: person(r).full.split(' ').slice(0, 2).reverse().join(' '),
      reach: r.int(500, 2_000_000),
    };
  },
  merchant: (r, i) => ({
    merchant_name: `${r.pick(['ИП', 'ООО'])} ${r.pick(SURNAMES)} ${i}`,
    mid: `78${String(10_000_000 + i).padStart(10, '0')}`,
    site_url: `https://${r.pick(['casino-luck', 'crypto-swap', 'best-shop', 'p2p-exchange', 'gift-cards'])}${i}.${r.pick(ZONES)}`,
    mcc: r.pick(['5999', '7995', '6051', '5411', '4829', '5734']),
    inn: sampleInn(500_000 + i),
    breach_category: r.pick(['gambling', 'crypto', 'adult', 'fraud', 'transit', 'counterfeit', 'other']),
    ...(r.chance(0.6)
      ? { questionable_category: r.pick(['mcc_mismatch', 'no_site', 'shell_company', 'high_chargeback', 'p2p']) }
      : {}),
    acquirer: r.pick(['ПАО Сбербанк', 'АО «ТБанк»', 'Банк ВТБ (ПАО)', 'АО «Альфа-Банк»']),
    description: r.pick([
      'Оборот не соответствует заявленному виду деятельности.',
      'Сайт принимает ставки под видом интернет-магазина.',
      'Платежи дробятся на мелкие суммы.',
    ]),
  }),
  endpoints: (r, i) => {
    const b = r.pick(BRANDS);
    const [path, type, tech] = r.pick([
      ['/actuator/env', 'debug', 'Spring Boot'],
      ['/swagger-ui.html', 'api', 'Spring Boot'],
      ['/admin/login', 'admin_panel', 'Django'],
      ['/phpmyadmin/', 'admin_panel', 'phpMyAdmin'],
      ['/.git/config', 'storage', 'nginx'],
      ['/api/v1/users', 'api', 'Node.js Express'],
      ['/graphql', 'api', r.pick(TECHS)],
      ['/debug/pprof/', 'debug', 'Go'],
      ['/bitrix/admin/', 'login_form', '1С-Битрикс'],
    ] as const);
    return {
      url: `https://${r.pick(['api', 'dev', 'test', 'stage', 'admin', 'lk'])}${i}.${b.domain}${path}`,
      method: r.weighted([
        ['GET', 8],
        ['POST', 2],
      ] as const),
      http_status: r.pick([200, 200, 200, 401, 403, 500]),
      endpoint_type: type,
      technology: tech,
      ip: ip4(r),
    };
  },
  consulting: (r, i) => ({
    subject: `${r.pick(['Проверка контрагента', 'Анализ фишинговой кампании', 'Оценка утечки', 'Расследование инцидента', 'Рекомендации по защите бренда'])} №${i}`,
    consulting_type: r.pick(['investigation', 'analysis', 'recommendation', 'other']),
    requester: r.pick(['Служба безопасности', 'Юридический департамент', 'Департамент рисков', 'Пресс-служба']),
    contact_email: `sb${i % 50}@${r.pick(BRANDS).domain}`,
    due_at: day(r, 2026, 2026),
    description: r.pick([
      'Нужно установить связь с известными мошенническими схемами.',
      'Оценить ущерб и подготовить рекомендации.',
      'Собрать доказательства для блокировки ресурсов.',
    ]),
  }),
  networkattacks: (r, i) => {
    const start = Date.UTC(2025, 0, 1) + ((i * 7919) % (500 * 86400)) * 1000;
    return {
      attack_type: r.pick(['ddos', 'scan', 'bruteforce', 'exploit', 'botnet']),
      source_ip: ip4(r),
      target: `${r.pick(['online', 'api', 'mail', 'vpn', 'www'])}.${r.pick(BRANDS).domain}`,
      target_port: r.pick([80, 443, 22, 25, 3389, 53]),
      protocol: r.pick(['tcp', 'udp', 'http']),
      attack_started_at: new Date(start).toISOString(),
      attack_ended_at: new Date(start + r.int(60, 7200) * 1000).toISOString(),
      peak_gbps: Math.round(r.next() * 2000) / 10,
      country: r.pick(COUNTRIES),
    };
  },
};

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

/** A module's fields for the event with ordinal `i`: its realistic generator, or its descriptor's sample. */
const fieldsOf = (module: ModuleCode, r: Rng, i: number) => REALISTIC[module]?.(r, i) ?? MODULES[module].sample(i);

/** How often each module appears in a realistic mix (relative weights; a module not named here: 1). */
const MODULE_WEIGHTS: Partial<Record<ModuleCode, number>> = {
  domains: 20,
  accounts: 15,
  media: 12,
  brand: 10,
  leaks: 6,
  employees: 6,
  acquiring: 6,
  services: 5,
  endpoints: 4,
  repositories: 4,
  firms: 3,
  merchant: 3,
  databases: 2,
  management: 2,
  networkattacks: 1.5,
  consulting: 0.5,
};

export interface GeneratedEvent {
  module: ModuleCode;
  /** Index of the company among those given (0-based). */
  company: number;
  status: string;
  priority: string | null;
  decision: string | null;
  source: Source;
  ml_state: MlState;
  detected_at: string;
  created_at: string;
  /** The module's own fields, valid for the registry's create schema. */
  fields: Record<string, unknown>;
}

export interface GenerateOptions {
  seed?: number;
  count: number;
  companies?: number;
  modules?: readonly ModuleCode[];
  /** created_at is spread over the `days` before `now`. */
  now?: Date;
  days?: number;
}

/** Yields `count` events; ordinals are per module, so fields stay unique per company and module. */
export function* generateEvents(o: GenerateOptions): Generator<GeneratedEvent> {
  const r = createRng(o.seed ?? 20_26);
  const modules = o.modules ?? MODULE_CODES;
  const weights = modules.map((m) => [m, MODULE_WEIGHTS[m] ?? 1] as const);
  const now = (o.now ?? new Date(Date.UTC(2026, 2, 1))).getTime();
  const span = (o.days ?? 365) * 86_400_000;
  const ordinal = new Map<ModuleCode, number>();
  for (let n = 0; n < o.count; n++) {
    const module = r.weighted(weights);
    const i = (ordinal.get(module) ?? 0) + 1;
    ordinal.set(module, i);
    const created = now - Math.floor(r.next() ** 1.5 * span);
    const detected = created - r.int(0, 72) * 3_600_000;
    const m = MODULES[module];
    yield {
      module,
      company: r.int(0, (o.companies ?? 1) - 1),
      status: r.weighted([
        ['new', 55],
        ['in_progress', 15],
        ['awaiting', 5],
        ['resolved', 18],
        ['false_positive', 7],
      ] as const),
      priority: r.weighted([
        [null, 10],
        ['low', 25],
        ['medium', 35],
        ['high', 22],
        ['critical', 8],
      ] as const),
      decision: hasDecisions(m) && r.chance(0.5) ? r.pick(m.decisions ?? []).code : null,
      source: r.weighted([
        ['Other', 4],
        ['Google', 3],
        ['Yandex', 3],
        ['Telegram', 2],
      ] as const),
      ml_state: r.weighted([
        ['NotDetermined', 6],
        ['Done', 3],
        ['InQueueToML', 1],
        ['SentToML', 0.5],
        ['Failed', 0.2],
      ] as const),
      detected_at: new Date(detected).toISOString(),
      created_at: new Date(created).toISOString(),
      fields: Object.fromEntries(Object.entries(fieldsOf(module, r, i)).filter(([, v]) => v !== undefined)),
    };
  }
}

import type { z } from 'zod';
import type { ModuleCode } from './registry';

/*
 * The registry itself (which modules exist, in which order) is defs/index.ts; MODULE_CODES and
 * ModuleCode are derived from it and re-exported here for the contract's schemas.
 */
export { MODULE_CODES, type ModuleCode } from './registry';

/**
 * What a field holds; drives validation, storage, the console's widget and the filter it gets.
 * `host` = domain or IP address; `ref` = id in a reference list (`ref` names it).
 */
export type FieldType =
  | 'string'
  | 'text'
  | 'domain'
  | 'host'
  | 'url'
  | 'email'
  | 'ip'
  | 'phone'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'card'
  | 'inn'
  | 'ogrn'
  | 'string_list'
  | 'ref';

/**
 * How a field can be filtered in the list:
 * `eq` exact (case-insensitive) · `contains` substring · `in` one of the options (comma list) ·
 * `bool` true/false · `range` `<key>_from` / `<key>_to` (dates and numbers).
 */
export type FilterKind = 'eq' | 'contains' | 'in' | 'bool' | 'range';

/** Reference lists a `ref` field may point to. */
export type RefList = 'media_types' | 'leak_types' | 'leaks';

export interface FieldOption {
  value: string;
  label: string;
}

export interface FieldDescriptor {
  /** snake_case key, used on the wire and inside the stored `data`. */
  key: string;
  /** Russian label (column header, form label, filter label). */
  label: string;
  type: FieldType;
  /** Validation of a present value (Russian messages); optional fields also accept null. */
  input: z.ZodType;
  required: boolean;
  /** Computed by the server from other fields; read-only, refused on input. */
  derived: boolean;
  /** Part of the free-text search (`q`). */
  search: boolean;
  filter: FilterKind | null;
  sortable: boolean;
  options?: readonly FieldOption[];
  ref?: RefList;
  /** Import column headers that map to this field (Russian and English, compared case-insensitively). */
  aliases: readonly string[];
  /** Stored encrypted, shown masked (`card`): only the audited reveal endpoint returns the clear value. */
  sensitive?: 'card';
  /** Short hint for forms. */
  hint?: string;
  /**
   * An import row without a value for this field takes it from another field's cell, read by `read`
   * (null: nothing usable there): the domains module's domain is the host of the row's URL, so a feed
   * of URLs alone (PhishTank, URLhaus, OpenPhish) imports without a domain column.
   */
  fillFrom?: { field: string; read: (raw: string) => string | null };
  /**
   * What kind of indicator the field's value is, for related events (indicators.ts); by default
   * from the type (ip, domain, host, url, email, phone, card, inn, ogrn), `false` to opt out.
   */
  indicator?: IndicatorKind | false;
  /**
   * The list column's width in px where the type's default is too narrow: the title of a leak or a
   * publication is read in full (two leaks of one CRM differ only past the 20th character).
   */
  listWidth?: number;
}

/** Kinds of indicators shared between events: related events match on them (indicators.ts). */
export type IndicatorKind = 'ip' | 'domain' | 'registrar' | 'inn' | 'ogrn' | 'bin' | 'email' | 'phone' | 'account';

/** One entry of a seeded reference list (statuses, priorities, decisions). */
export interface RefSeed {
  code: string;
  name: string;
}
export interface StatusSeed extends RefSeed {
  /** The event is closed in this status (resolved, false positive). */
  is_final: boolean;
  /** Ant Design tag colour name for the console. */
  color: string;
}
export interface PrioritySeed extends RefSeed {
  /** 1 = lowest. */
  level: number;
  color: string;
}

export interface ActionDescriptor {
  code: string;
  label: string;
  /** Whom the request goes to (e.g. Netoscope), if anyone. */
  provider?: string;
}

/** A module's endpoints beyond the common set (each implemented by its own extras file in the API). */
export type ModuleExtra =
  | 'decisions'
  | 'actions'
  | 'snapshots'
  | 'allowlist'
  | 'card_reveal'
  | 'files'
  | 'media_types'
  | 'leak_catalogue'
  | 'leak_types'
  | 'linked_leaks'
  | 'merchant_categories';

/**
 * A module's menu icon, as a key: the console maps each key to an icon component in one table. The
 * keys no module uses yet are there for the next modules.
 */
export const MODULE_ICONS = [
  'global',
  'trademark',
  'solution',
  'database',
  'cloud-server',
  'credit-card',
  'idcard',
  'bank',
  'user',
  'warning',
  'code',
  'read',
  'shop',
  'api',
  'bulb',
  'thunderbolt',
  'alert',
  'bug',
  'cluster',
  'eye',
  'lock',
  'mobile',
] as const;
export type ModuleIcon = (typeof MODULE_ICONS)[number];

/**
 * What the built-in classifier judges in a module's events: the sentiment of a text (the module then
 * stores the result in its `connotation` field), or the phishing score of a domain. `fields`: where the
 * text or the domain is read from (texts joined with the title; for a domain, the first that is set).
 */
export interface ClassifyDescriptor {
  kind: 'sentiment' | 'phishing';
  fields: readonly string[];
  /**
   * Phishing: a 0..100 field of the module that carries the source's own similarity to the brand
   * (imported evidence). The built-in score takes it into account and says so in its reasons.
   */
  similarityField?: string;
}

export interface ModuleDescriptor<C extends string = ModuleCode> {
  /** Stable numeric id (GET /modules); the menu lists modules in the order of their ids. */
  id: number;
  code: C;
  /** Console route of the list page. */
  route: `/${string}`;
  /** Russian name (menu, page title). */
  name: string;
  /** One sentence: what an event of this module is. */
  description: string;
  /** '#rrggbb': the module's colour in every chart (dashboard, PDF report), distinct per module. */
  color: string;
  /** Menu icon. */
  icon: ModuleIcon;
  /** The module's own fields (common event fields are in COMMON_FIELDS). */
  fields: readonly FieldDescriptor[];
  /** List columns, in order: keys of common or module fields. */
  columns: readonly string[];
  /** Module fields that identify "the same" event within a company (dedup). */
  fingerprint: readonly string[];
  /** Title used when the request gives none. */
  title: (data: Record<string, unknown>) => string;
  /** Server-computed fields from the validated input (pure; also usable by the console for previews). */
  derive?: (data: Record<string, unknown>) => Record<string, unknown>;
  /** Decisions, for modules that take a decision on an event. */
  decisions?: readonly RefSeed[];
  /** Requests an analyst can send about an event (each is recorded on the event history). */
  actions?: readonly ActionDescriptor[];
  /** Endpoints beyond the common set; the console shows the detail-page blocks of those that have one. */
  extras: readonly ModuleExtra[];
  /** What the built-in classifier judges (none: it records that the module has no classifier). */
  classify?: ClassifyDescriptor;
  /** The field compared with the whitelist's 'name' entries (legal entity and merchant names, not people or brands). */
  whitelistName?: string;
  /** A valid set of module fields; `n` varies the fingerprint (tests, examples, demo data). */
  sample: (n: number) => Record<string, unknown>;
}

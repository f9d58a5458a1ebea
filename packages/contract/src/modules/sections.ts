/*
 * Each event module's identity — id (menu order), API code, console route, Russian name, icon key,
 * chart colour — with nothing else: no fields, no zod. It is written here once: the descriptors in
 * defs/ take it with `...section('<code>')`, and the module codes (`ModuleCode`) are this table's keys.
 * The console's route tree reads it before any page loads (the `$section` route's check, the section
 * of a URL), and the home page's charts and selectors need no more, so neither page loads the whole
 * registry with zod (~35 KB, issue #16).
 */
import type { ModuleIcon } from './types';

/** One line per event module (the menu lists them by id). A module without its descriptor in defs/index.ts does not compile (registry.ts). */
const SECTIONS = {
  domains: { id: 1, route: '/domains', name: 'Домены', icon: 'global', color: '#1677ff' },
  brand: { id: 2, route: '/brands', name: 'Бренды', icon: 'trademark', color: '#fa8c16' },
  management: { id: 3, route: '/management', name: 'Менеджмент', icon: 'solution', color: '#722ed1' },
  databases: { id: 4, route: '/databases', name: 'Базы данных', icon: 'database', color: '#13c2c2' },
  services: { id: 5, route: '/services', name: 'Сервисы', icon: 'cloud-server', color: '#52c41a' },
  acquiring: { id: 6, route: '/acquiring', name: 'Эквайринг', icon: 'credit-card', color: '#eb2f96' },
  employees: { id: 7, route: '/employees', name: 'Сотрудники', icon: 'idcard', color: '#faad14' },
  firms: { id: 8, route: '/firms', name: 'Юрлица', icon: 'bank', color: '#2f54eb' },
  accounts: { id: 9, route: '/accounts', name: 'Аккаунты', icon: 'user', color: '#a0d911' },
  leaks: { id: 10, route: '/leaks', name: 'Утечки', icon: 'warning', color: '#f5222d' },
  repositories: { id: 11, route: '/repositories', name: 'Репозитории', icon: 'code', color: '#595959' },
  media: { id: 12, route: '/media', name: 'СМИ', icon: 'read', color: '#fa541c' },
  merchant: { id: 13, route: '/merchants', name: 'Мерчанты', icon: 'shop', color: '#36cfc9' },
  endpoints: { id: 14, route: '/endpoints', name: 'Эндпоинты', icon: 'api', color: '#ff85c0' },
  consulting: { id: 15, route: '/consulting', name: 'Консалтинг', icon: 'bulb', color: '#b37feb' },
  networkattacks: { id: 16, route: '/network-attacks', name: 'Сетевые атаки', icon: 'thunderbolt', color: '#820014' },
} as const satisfies Record<string, Omit<ModuleSection<string>, 'code'>>;

/** API code of an event module. */
export type ModuleCode = keyof typeof SECTIONS;

export interface ModuleSection<C extends string = ModuleCode> {
  /** Stable numeric id (GET /modules); the menu lists modules in the order of their ids. */
  id: number;
  code: C;
  /** Console route of the list page. */
  route: `/${string}`;
  /** Russian name (menu, page title). */
  name: string;
  /** Menu icon. */
  icon: ModuleIcon;
  /** '#rrggbb': the module's colour in every chart (dashboard, PDF report), distinct per module. */
  color: string;
}

/** A module's identity, for its descriptor (`...section('domains')`). */
export const section = <C extends ModuleCode>(code: C): ModuleSection<C> => ({ code, ...SECTIONS[code] });

/** In the order of the menu (by id), as MODULE_LIST. */
export const MODULE_SECTIONS: readonly ModuleSection[] = (Object.keys(SECTIONS) as ModuleCode[])
  .map((code) => section(code))
  .sort((a, b) => a.id - b.id);

/** Is `s` an event module's API code (the light twin of the registry's `isModuleCode`)? */
export const isModuleSectionCode = (s: string): s is ModuleCode => Object.hasOwn(SECTIONS, s);

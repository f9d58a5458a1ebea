/*
 * Each event module's identity — id (menu order), API code, console route, Russian name, icon key,
 * chart colour — with nothing else: no fields, no zod. The console's route tree reads it before any
 * page loads (the `$section` route's check, the section of a URL), and the home page's charts and
 * selectors need no more, so neither page loads the whole registry with zod (~35 KB, issue #16).
 * Must equal the descriptors in defs/ (registry.test.ts).
 */
import type { ModuleCode, ModuleIcon } from './types';

export interface ModuleSection {
  id: number;
  code: ModuleCode;
  route: string;
  name: string;
  icon: ModuleIcon;
  /** The module's colour in charts. */
  color: string;
}

/** In the order of the menu (by id), as MODULE_LIST. */
export const MODULE_SECTIONS: readonly ModuleSection[] = [
  { id: 1, code: 'domains', route: '/domains', name: 'Домены', icon: 'global', color: '#1677ff' },
  { id: 2, code: 'brand', route: '/brands', name: 'Бренды', icon: 'trademark', color: '#fa8c16' },
  { id: 3, code: 'management', route: '/management', name: 'Менеджмент', icon: 'solution', color: '#722ed1' },
  { id: 4, code: 'databases', route: '/databases', name: 'Базы данных', icon: 'database', color: '#13c2c2' },
  { id: 5, code: 'services', route: '/services', name: 'Сервисы', icon: 'cloud-server', color: '#52c41a' },
  { id: 6, code: 'acquiring', route: '/acquiring', name: 'Эквайринг', icon: 'credit-card', color: '#eb2f96' },
  { id: 7, code: 'employees', route: '/employees', name: 'Сотрудники', icon: 'idcard', color: '#faad14' },
  { id: 8, code: 'firms', route: '/firms', name: 'Юрлица', icon: 'bank', color: '#2f54eb' },
  { id: 9, code: 'accounts', route: '/accounts', name: 'Аккаунты', icon: 'user', color: '#a0d911' },
  { id: 10, code: 'leaks', route: '/leaks', name: 'Утечки', icon: 'warning', color: '#f5222d' },
  { id: 11, code: 'repositories', route: '/repositories', name: 'Репозитории', icon: 'code', color: '#595959' },
  { id: 12, code: 'media', route: '/media', name: 'СМИ', icon: 'read', color: '#fa541c' },
  { id: 13, code: 'merchant', route: '/merchants', name: 'Мерчанты', icon: 'shop', color: '#36cfc9' },
  { id: 14, code: 'endpoints', route: '/endpoints', name: 'Эндпоинты', icon: 'api', color: '#ff85c0' },
  { id: 15, code: 'consulting', route: '/consulting', name: 'Консалтинг', icon: 'bulb', color: '#b37feb' },
  { id: 16, code: 'networkattacks', route: '/network-attacks', name: 'Сетевые атаки', icon: 'thunderbolt', color: '#820014' },
];

/** Is `s` an event module's API code (the light twin of the registry's `isModuleCode`)? */
export const isModuleSectionCode = (s: string): s is ModuleCode => MODULE_SECTIONS.some((m) => m.code === s);

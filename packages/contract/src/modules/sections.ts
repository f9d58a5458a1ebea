/*
 * Each event module's identity — id (menu order), API code, console route, Russian name, icon key —
 * with nothing else: no fields, no zod. The console's route tree reads it before any page loads (the
 * `$section` route's check, the section of a URL), so it is part of the sign-in page's bundle, where
 * the whole registry would cost ~40 KB (issue #16). Must equal the descriptors in defs/ (registry.test.ts).
 */
import type { ModuleCode, ModuleIcon } from './types';

export interface ModuleSection {
  id: number;
  code: ModuleCode;
  route: string;
  name: string;
  icon: ModuleIcon;
}

/** In the order of the menu (by id), as MODULE_LIST. */
export const MODULE_SECTIONS: readonly ModuleSection[] = [
  { id: 1, code: 'domains', route: '/domains', name: 'Домены', icon: 'global' },
  { id: 2, code: 'brand', route: '/brands', name: 'Бренды', icon: 'trademark' },
  { id: 3, code: 'management', route: '/management', name: 'Менеджмент', icon: 'solution' },
  { id: 4, code: 'databases', route: '/databases', name: 'Базы данных', icon: 'database' },
  { id: 5, code: 'services', route: '/services', name: 'Сервисы', icon: 'cloud-server' },
  { id: 6, code: 'acquiring', route: '/acquiring', name: 'Эквайринг', icon: 'credit-card' },
  { id: 7, code: 'employees', route: '/employees', name: 'Сотрудники', icon: 'idcard' },
  { id: 8, code: 'firms', route: '/firms', name: 'Юрлица', icon: 'bank' },
  { id: 9, code: 'accounts', route: '/accounts', name: 'Аккаунты', icon: 'user' },
  { id: 10, code: 'leaks', route: '/leaks', name: 'Утечки', icon: 'warning' },
  { id: 11, code: 'repositories', route: '/repositories', name: 'Репозитории', icon: 'code' },
  { id: 12, code: 'media', route: '/media', name: 'СМИ', icon: 'read' },
  { id: 13, code: 'merchant', route: '/merchants', name: 'Мерчанты', icon: 'shop' },
  { id: 14, code: 'endpoints', route: '/endpoints', name: 'Эндпоинты', icon: 'api' },
  { id: 15, code: 'consulting', route: '/consulting', name: 'Консалтинг', icon: 'bulb' },
  { id: 16, code: 'networkattacks', route: '/network-attacks', name: 'Сетевые атаки', icon: 'thunderbolt' },
];

/** Is `s` an event module's API code (the light twin of the registry's `isModuleCode`)? */
export const isModuleSectionCode = (s: string): s is ModuleCode => MODULE_SECTIONS.some((m) => m.code === s);

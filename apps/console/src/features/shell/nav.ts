import {
  AlertOutlined,
  ApartmentOutlined,
  ApiOutlined,
  AuditOutlined,
  BankOutlined,
  BellOutlined,
  BookOutlined,
  BugOutlined,
  BulbOutlined,
  CheckSquareOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  CodeOutlined,
  ControlOutlined,
  CreditCardOutlined,
  DatabaseOutlined,
  DownloadOutlined,
  EyeOutlined,
  FieldTimeOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  GlobalOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  LockOutlined,
  MessageOutlined,
  MobileOutlined,
  PartitionOutlined,
  ProfileOutlined,
  RadarChartOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SendOutlined,
  SettingOutlined,
  ShopOutlined,
  SolutionOutlined,
  SoundOutlined,
  StopOutlined,
  SwapRightOutlined,
  TagsOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  TrademarkOutlined,
  UserOutlined,
  UserSwitchOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { ModuleIcon } from '@forpost/contract/modules';
import { can, type Permission, type Principal } from '@forpost/contract/permissions';
import type { ComponentType } from 'react';
import { EVENT_SECTIONS } from './sections';

/**
 * The console's navigation as data: every section of spec §2, its Russian name, menu group, icon
 * and the permission (contract matrix) a user needs to see it. The side menu, page titles and the
 * placeholder pages read it from here.
 */

type Icon = ComponentType<{ className?: string }>;

export type NavGroupKey = 'monitoring' | 'telegram' | 'reports' | 'admin' | 'settings';

export interface NavGroup {
  key: NavGroupKey;
  label: string;
  icon: Icon;
}

export interface NavItem {
  /** URL path of the section (also the menu key). */
  path: string;
  /** Russian name: menu label and page title. */
  label: string;
  icon: Icon;
  /** Menu group; `null` = top level (Главная). */
  group: NavGroupKey | null;
  /** Needed to see the item; `null` = any signed-in user. */
  permission: Permission | null;
}

export const NAV_GROUPS: readonly NavGroup[] = [
  { key: 'monitoring', label: 'Мониторинг', icon: RadarChartOutlined },
  { key: 'telegram', label: 'Telegram', icon: SendOutlined },
  { key: 'reports', label: 'Отчёты и выгрузки', icon: FileTextOutlined },
  { key: 'admin', label: 'Администрирование', icon: TeamOutlined },
  { key: 'settings', label: 'Настройки', icon: SettingOutlined },
];

/** The component of each module icon key (descriptors name their icon by key; a missing key is a type error). */
const MODULE_ICON_COMPONENTS: Record<ModuleIcon, Icon> = {
  global: GlobalOutlined,
  trademark: TrademarkOutlined,
  solution: SolutionOutlined,
  database: DatabaseOutlined,
  'cloud-server': CloudServerOutlined,
  'credit-card': CreditCardOutlined,
  idcard: IdcardOutlined,
  bank: BankOutlined,
  user: UserOutlined,
  warning: WarningOutlined,
  code: CodeOutlined,
  read: ReadOutlined,
  shop: ShopOutlined,
  api: ApiOutlined,
  bulb: BulbOutlined,
  thunderbolt: ThunderboltOutlined,
  alert: AlertOutlined,
  bug: BugOutlined,
  cluster: ClusterOutlined,
  eye: EyeOutlined,
  lock: LockOutlined,
  mobile: MobileOutlined,
};

export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/', label: 'Главная', icon: HomeOutlined, group: null, permission: null },

  // The analyst's own queue first: events assigned to them across every module.
  { path: '/my-events', label: 'Мои события', icon: CheckSquareOutlined, group: 'monitoring', permission: 'events.read' },
  ...EVENT_SECTIONS.map(
    (s): NavItem => ({
      path: `/${s.section}`,
      label: s.label,
      icon: MODULE_ICON_COMPONENTS[s.icon],
      group: 'monitoring',
      permission: 'events.read',
    }),
  ),

  {
    path: '/discovery',
    label: 'Поиск доменов',
    icon: RadarChartOutlined,
    group: 'monitoring',
    permission: 'discovery.read',
  },
  { path: '/takedown', label: 'Блокировки', icon: StopOutlined, group: 'monitoring', permission: 'events.read' },
  { path: '/hunts', label: 'Поиск утечек', icon: SafetyOutlined, group: 'monitoring', permission: 'hunts.manage' },

  { path: '/messages', label: 'Сообщения', icon: MessageOutlined, group: 'telegram', permission: 'messages.read' },
  {
    path: '/telegram/accounts',
    label: 'Аккаунты Telegram',
    icon: UserSwitchOutlined,
    group: 'telegram',
    permission: 'telegram.read',
  },
  { path: '/telegram/channels', label: 'Каналы', icon: SoundOutlined, group: 'telegram', permission: 'telegram.read' },

  { path: '/reports', label: 'Отчёты', icon: FileTextOutlined, group: 'reports', permission: 'reports.read' },
  { path: '/exports', label: 'Мои экспорты', icon: DownloadOutlined, group: 'reports', permission: 'events.export' },
  { path: '/notifications', label: 'Уведомления', icon: BellOutlined, group: 'reports', permission: 'mailings.read' },

  { path: '/companies', label: 'Компании', icon: ApartmentOutlined, group: 'admin', permission: 'companies.read' },
  { path: '/users', label: 'Пользователи', icon: TeamOutlined, group: 'admin', permission: 'users.read' },
  { path: '/api-keys', label: 'API-ключи', icon: KeyOutlined, group: 'admin', permission: 'apikeys.read' },
  { path: '/api-docs', label: 'Документация API', icon: BookOutlined, group: 'admin', permission: null },
  { path: '/audit', label: 'Журнал аудита', icon: AuditOutlined, group: 'admin', permission: 'audit.read' },

  {
    path: '/settings/configs',
    label: 'Конфигурация',
    icon: ControlOutlined,
    group: 'settings',
    permission: 'configs.manage',
  },
  { path: '/settings/tags', label: 'Теги', icon: TagsOutlined, group: 'settings', permission: 'settings.read' },
  {
    path: '/settings/whitelist',
    label: 'Белый список',
    icon: SafetyCertificateOutlined,
    group: 'settings',
    permission: 'whitelist.read',
  },
  {
    path: '/settings/media-types',
    label: 'Типы СМИ',
    icon: ProfileOutlined,
    group: 'settings',
    permission: 'settings.read',
  },
  {
    path: '/settings/leaks',
    label: 'Утечки (справочник)',
    icon: FileSearchOutlined,
    group: 'settings',
    permission: 'settings.read',
  },
  {
    path: '/settings/redirects',
    label: 'Перенаправления',
    icon: SwapRightOutlined,
    group: 'settings',
    permission: 'route_rules.manage',
  },
  {
    path: '/settings/integrations',
    label: 'Интеграции',
    icon: ApiOutlined,
    group: 'settings',
    permission: 'integrations.manage',
  },
  { path: '/settings/sla', label: 'Сроки SLA', icon: FieldTimeOutlined, group: 'settings', permission: 'settings.read' },
  {
    path: '/settings/leaks-types',
    label: 'Типы утечек',
    icon: PartitionOutlined,
    group: 'settings',
    permission: 'settings.read',
  },
];

/** Items the principal may open (no permission = any signed-in user). */
export function visibleNavItems(principal: Principal): NavItem[] {
  return NAV_ITEMS.filter((item) => item.permission === null || can(principal, item.permission));
}

/**
 * The nav item a URL belongs to: the longest item path that is the pathname or a parent of it
 * (/domains/15 → Домены, /settings/leaks/import → Утечки (справочник)); '/' only matches itself.
 */
export function navItemForPath(pathname: string): NavItem | undefined {
  let best: NavItem | undefined;
  for (const item of NAV_ITEMS) {
    const match = item.path === '/' ? pathname === '/' : pathname === item.path || pathname.startsWith(`${item.path}/`);
    if (match && (!best || item.path.length > best.path.length)) best = item;
  }
  return best;
}

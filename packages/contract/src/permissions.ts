/**
 * The permission matrix: data, shared by the API (enforced on every route and object)
 * and the console (hides what a user cannot use).
 */
export const USER_ROLES = ['SUPER_ADMIN', 'ADMIN', 'ANALYST', 'VIEWER', 'COMPANY_USER'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const STAFF_ROLES = ['SUPER_ADMIN', 'ADMIN', 'ANALYST', 'VIEWER'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const COMPANY_ROLES = ['COMPANY_ADMIN', 'COMPANY_ANALYST', 'COMPANY_VIEWER'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

export const USER_ROLE_LABELS: Record<UserRole, string> = {
  SUPER_ADMIN: 'Суперадминистратор',
  ADMIN: 'Администратор',
  ANALYST: 'Аналитик',
  VIEWER: 'Наблюдатель',
  COMPANY_USER: 'Пользователь компании',
};
export const COMPANY_ROLE_LABELS: Record<CompanyRole, string> = {
  COMPANY_ADMIN: 'Администратор компании',
  COMPANY_ANALYST: 'Аналитик компании',
  COMPANY_VIEWER: 'Наблюдатель компании',
};

/** Every action of the product. `public` and `authenticated` are pseudo-permissions for routes. */
export const PERMISSIONS = [
  'events.read',
  'events.write',
  'events.delete',
  'events.import',
  'events.export',
  'events.card_reveal',
  'companies.read',
  'companies.create',
  'companies.update',
  'companies.delete',
  'companies.keys',
  'users.read',
  'users.manage',
  'admins.manage',
  'apikeys.read',
  'apikeys.manage',
  'configs.manage',
  'settings.read',
  'settings.manage',
  'route_rules.manage',
  'whitelist.read',
  'whitelist.manage',
  'global_whitelist.read',
  'global_whitelist.manage',
  'mailings.read',
  'mailings.manage',
  'reports.read',
  'reports.manage',
  'telegram.read',
  'telegram.manage',
  'messages.read',
  'messages.collect',
  'messages.delete',
  'audit.read',
  'discovery.read',
  'discovery.manage',
  'takedown.send',
  'integrations.manage',
  /** Credential-leak hunts (#34): a dump read against every company — staff admins only (not company-scoped). */
  'hunts.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
/**
 * What a route may be called by: a permission of the matrix, anyone (`public`), any signed-in user or
 * API key (`authenticated`), or only a signed-in user — never an API key (`session`: the user's own
 * profile, password, second factor, sessions and product-key activation).
 */
export type RoutePermission = Permission | 'public' | 'authenticated' | 'session';

/** Permissions that are scoped to a company (checked against the object's company). */
export const COMPANY_SCOPED: ReadonlySet<Permission> = new Set<Permission>([
  'events.read',
  'events.write',
  'events.delete',
  'events.import',
  'events.export',
  'events.card_reveal',
  'companies.read',
  'companies.update',
  'users.read',
  'users.manage',
  'apikeys.read',
  'apikeys.manage',
  'whitelist.read',
  'whitelist.manage',
  'mailings.read',
  'mailings.manage',
  'reports.read',
  'reports.manage',
  'messages.read',
  'messages.collect',
  'messages.delete',
  'discovery.read',
  'discovery.manage',
  'takedown.send',
  'integrations.manage',
]);

const ALL = [...PERMISSIONS];
const READ: Permission[] = [
  'events.read',
  'events.export',
  'companies.read',
  'settings.read',
  'whitelist.read',
  'global_whitelist.read',
  'mailings.read',
  'reports.read',
  'telegram.read',
  'messages.read',
  'discovery.read',
];
const ANALYST: Permission[] = [
  ...READ,
  'events.write',
  'events.delete',
  'events.import',
  'mailings.manage',
  'reports.manage',
  'whitelist.manage',
  'settings.manage',
  'messages.delete',
  'discovery.manage',
  'takedown.send',
];

export const STAFF_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  SUPER_ADMIN: ALL,
  ADMIN: ALL.filter((p) => p !== 'configs.manage' && p !== 'admins.manage'),
  ANALYST,
  VIEWER: READ,
};

export const COMPANY_PERMISSIONS: Record<CompanyRole, readonly Permission[]> = {
  COMPANY_ADMIN: [
    'events.read',
    'events.write',
    'events.import',
    'events.export',
    'companies.read',
    'users.read',
    'users.manage',
    'apikeys.read',
    'apikeys.manage',
    'whitelist.read',
    'whitelist.manage',
    'mailings.read',
    'mailings.manage',
    'reports.read',
    'reports.manage',
    'messages.read',
    'discovery.read',
    'discovery.manage',
    'takedown.send',
    'integrations.manage',
  ],
  COMPANY_ANALYST: [
    'events.read',
    'events.write',
    'events.import',
    'events.export',
    'companies.read',
    'whitelist.read',
    'mailings.read',
    'reports.read',
    'reports.manage',
    'messages.read',
    'discovery.read',
    'takedown.send',
  ],
  COMPANY_VIEWER: ['events.read', 'events.export', 'companies.read', 'reports.read', 'messages.read', 'discovery.read'],
};

export interface Membership {
  company_id: number;
  role: CompanyRole;
}
export interface Principal {
  role: UserRole;
  memberships: readonly Membership[];
  /**
   * For API keys: exactly what the key may do (its roles intersected with its owner's rights, computed
   * at authentication), within the companies of `memberships` (the key's one company).
   */
  keyPermissions?: readonly Permission[];
  /** For API keys: the module codes the key's roles cover (absent = every module). */
  keyModules?: readonly string[];
  /** For API keys: the module codes the key may change ('*' = every module). */
  keyWriteModules?: readonly string[];
}

export const isStaff = (role: UserRole): role is StaffRole => role !== 'COMPANY_USER';

/**
 * May the principal do `perm`? Without `companyId`: in at least one company (or globally for staff).
 * With `companyId`: in that company.
 */
export function can(p: Principal, perm: Permission, companyId?: number): boolean {
  if (p.keyPermissions) {
    if (!p.keyPermissions.includes(perm)) return false;
    return companyId === undefined || p.memberships.some((m) => m.company_id === companyId);
  }
  if (isStaff(p.role)) return STAFF_PERMISSIONS[p.role].includes(perm);
  if (!COMPANY_SCOPED.has(perm)) return false;
  return p.memberships.some(
    (m) => (companyId === undefined || m.company_id === companyId) && COMPANY_PERMISSIONS[m.role].includes(perm),
  );
}

/** Companies where the principal may do `perm`; `'all'` for staff with the permission. */
export function companiesWith(p: Principal, perm: Permission): 'all' | number[] {
  if (p.keyPermissions) return p.keyPermissions.includes(perm) ? p.memberships.map((m) => m.company_id) : [];
  if (isStaff(p.role)) return can(p, perm) ? 'all' : [];
  return p.memberships.filter((m) => COMPANY_PERMISSIONS[m.role].includes(perm)).map((m) => m.company_id);
}

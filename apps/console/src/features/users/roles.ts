import {
  COMPANY_ROLE_LABELS,
  COMPANY_ROLES,
  isStaff,
  USER_ROLE_LABELS,
  USER_ROLES,
  type UserRole,
} from '@forpost/contract/permissions';

export const ADMIN_ROLES: readonly UserRole[] = ['SUPER_ADMIN', 'ADMIN'];

/** Tag colour of each user role in lists. */
export const USER_ROLE_COLORS: Record<UserRole, string> = {
  SUPER_ADMIN: 'magenta',
  ADMIN: 'volcano',
  ANALYST: 'geekblue',
  VIEWER: 'cyan',
  COMPANY_USER: 'default',
};

/**
 * Roles the signed-in user may give: a super admin any; other staff admins all but the admin roles;
 * a company admin only «Пользователь компании» (API rules in users.service).
 */
export function assignableRoles(actorRole: UserRole): UserRole[] {
  if (actorRole === 'SUPER_ADMIN') return [...USER_ROLES];
  if (isStaff(actorRole)) return USER_ROLES.filter((r) => !ADMIN_ROLES.includes(r));
  return ['COMPANY_USER'];
}

export const roleOptions = (roles: readonly UserRole[]) => roles.map((r) => ({ value: r, label: USER_ROLE_LABELS[r] }));
export const companyRoleOptions = COMPANY_ROLES.map((r) => ({ value: r, label: COMPANY_ROLE_LABELS[r] }));

/** What each role may do, for the help next to the role select. */
export const USER_ROLE_HELP: Record<UserRole, string> = {
  SUPER_ADMIN: 'Всё, включая администраторов и системную конфигурацию.',
  ADMIN: 'Всё во всех компаниях, кроме управления администраторами и системной конфигурации.',
  ANALYST: 'Разбор, импорт, экспорт событий, отчёты, рассылки и белые списки во всех компаниях.',
  VIEWER: 'Просмотр и экспорт во всех компаниях.',
  COMPANY_USER:
    'Только компании, в которых состоит, с ролью в каждой: администратор компании управляет её пользователями, белым списком, рассылками и API-ключами; аналитик разбирает события; наблюдатель смотрит.',
};

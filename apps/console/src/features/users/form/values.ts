import type { CompanyRole, UserRole } from '@forpost/contract/permissions';
import type { createUserRequest, updateUserRequest } from '@forpost/contract/users';
import type { z } from 'zod';
import { withStashedIp } from '../../../components/form/AllowedIpsFields';
import type { User } from '../api/queries';

/** The fields of the user form (`allowed_ips_stash`: an address typed but not added yet). */
export interface UserFormValues {
  email: string;
  name: string;
  role: UserRole;
  companies: { company_id?: number; role?: CompanyRole }[];
  is_active: boolean;
  pending_activation: boolean;
  allowed_ips: string[];
  allowed_ips_stash?: string;
  password_mode?: 'invite' | 'generate';
}

/**
 * What the form starts with: the user being edited, or a new user — a company user with the only
 * company the actor may add to (as viewer) when the actor is not staff.
 */
export function initialUserValues(
  user: User | undefined,
  staff: boolean,
  companyChoices: readonly { value: number }[],
): UserFormValues {
  if (user) {
    return {
      email: user.email,
      name: user.name,
      role: user.role,
      companies: user.companies.map((c) => ({ company_id: c.company_id, role: c.role })),
      is_active: user.is_active,
      pending_activation: user.pending_activation,
      allowed_ips: user.allowed_ips,
      allowed_ips_stash: '',
    };
  }
  return {
    email: '',
    name: '',
    role: staff ? (undefined as unknown as UserRole) : 'COMPANY_USER',
    companies: !staff && companyChoices.length === 1 ? [{ company_id: companyChoices[0]?.value, role: 'COMPANY_VIEWER' }] : [],
    is_active: true,
    pending_activation: false,
    allowed_ips: [],
    allowed_ips_stash: '',
    password_mode: 'invite',
  };
}

/** POST /users body: company links only for a company user; unchecked here, the contract schema checks it. */
export function createUserBody(v: UserFormValues): z.input<typeof createUserRequest> {
  return { ...commonFields(v), companies: companyLinks(v), password_mode: v.password_mode ?? 'invite' };
}

/** PATCH /users/{id} body: company links when the user is (or stops being) a company user. */
export function updateUserBody(v: UserFormValues, user: User): z.input<typeof updateUserRequest> {
  const common = commonFields(v);
  return v.role === 'COMPANY_USER' || v.role !== user.role ? { ...common, companies: companyLinks(v) } : common;
}

function commonFields(v: UserFormValues) {
  return {
    email: v.email,
    name: v.name,
    role: v.role,
    is_active: v.is_active,
    allowed_ips: withStashedIp(v),
    pending_activation: v.role === 'COMPANY_USER' ? v.pending_activation : false,
  };
}

/** The filled-in company rows of a company user; staff have none. */
function companyLinks(v: UserFormValues) {
  return v.role === 'COMPANY_USER'
    ? v.companies
        .filter((c) => c.company_id && c.role)
        .map((c) => ({ company_id: c.company_id as number, role: c.role as CompanyRole }))
    : [];
}

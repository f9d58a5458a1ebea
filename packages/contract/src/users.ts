import { z } from 'zod';
import { bodyId, companyQuery, uniqueBy } from './common';
import { MSG } from './messages';
import { COMPANY_ROLES, USER_ROLES } from './permissions';
import { emailSchema, ipOrCidrSchema } from './validation';

export const userCompanyInput = z.strictObject({ company_id: bodyId(), role: z.enum(COMPANY_ROLES) });

export const createUserRequest = z.strictObject({
  email: emailSchema,
  name: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong(200)),
  role: z.enum(USER_ROLES, { error: 'Неизвестная роль' }),
  companies: uniqueBy(userCompanyInput, 'company_id', 'Компания указана дважды').max(500).default([]),
  is_active: z.boolean().default(true),
  allowed_ips: z.array(ipOrCidrSchema).max(100).default([]),
  pending_activation: z.boolean().default(false),
  /** invite: send a set-password link by email; generate: return a generated password once. */
  password_mode: z.enum(['invite', 'generate']).default('generate'),
});
export const updateUserRequest = z.strictObject({
  email: emailSchema.optional(),
  name: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong(200)).optional(),
  role: z.enum(USER_ROLES, { error: 'Неизвестная роль' }).optional(),
  companies: uniqueBy(userCompanyInput, 'company_id', 'Компания указана дважды').max(500).optional(),
  is_active: z.boolean().optional(),
  allowed_ips: z.array(ipOrCidrSchema).max(100).optional(),
  pending_activation: z.boolean().optional(),
  reset_2fa: z.literal(true).optional(),
});
export const userRolesRequest = z.strictObject({
  role: z.enum(USER_ROLES, { error: 'Неизвестная роль' }),
  companies: uniqueBy(userCompanyInput, 'company_id', 'Компания указана дважды').max(500),
});

export const userResponse = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(USER_ROLES),
  is_active: z.boolean(),
  is_2fa_enabled: z.boolean(),
  allowed_ips: z.array(z.string()),
  pending_activation: z.boolean(),
  companies: z.array(z.object({ company_id: z.number().int(), name: z.string(), role: z.enum(COMPANY_ROLES) })),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type User = z.infer<typeof userResponse>;
export const createdUserResponse = userResponse.extend({
  generated_password: z.string().optional(),
  invite_sent: z.boolean().optional(),
});
export const userRolesResponse = z.object({
  role: z.enum(USER_ROLES),
  companies: z.array(z.object({ company_id: z.number().int(), role: z.enum(COMPANY_ROLES) })),
});

export const userListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(20),
  q: z.string().trim().max(200).optional(),
  role: z.enum(USER_ROLES).optional(),
  company_id: companyQuery,
  is_active: z.enum(['true', 'false']).optional(),
});

export const USER_MSG = {
  emailTaken: 'Пользователь с таким email уже существует',
  onlySuperAdmin: 'Только суперадминистратор может назначать и изменять администраторов',
  lastSuperAdmin: 'Нельзя удалить или понизить последнего суперадминистратора',
  selfDemote: 'Нельзя снять с себя роль администратора',
  selfDelete: 'Нельзя удалить собственную учётную запись',
  companyUserNeedsCompany: 'Пользователю компании нужна хотя бы одна компания',
  staffNoCompanies: 'Сотрудникам не назначаются компании: они видят все компании',
  foreignCompany: 'Нельзя назначить компанию, которой вы не управляете',
  unknownCompany: 'Компания не найдена',
} as const;

import { z } from 'zod';
import { bodyId, uniqueBy } from './common';
import { MSG } from './messages';
import { COMPANY_ROLES } from './permissions';
import { emailSchema, innSchema, ogrnSchema } from './validation';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, MSG.tooLong(max))
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional();

export const companyMemberInput = z.strictObject({ user_id: bodyId(), role: z.enum(COMPANY_ROLES) });

export const companyInput = z.strictObject({
  name: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong(200)),
  legal_name: optionalText(300),
  inn: innSchema
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  ogrn: ogrnSchema
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  contact_name: optionalText(200),
  contact_email: emailSchema
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  contact_phone: optionalText(50),
  modules: z.array(z.string().max(50)).max(50).optional(),
  is_active: z.boolean().optional(),
  members: uniqueBy(companyMemberInput, 'user_id', 'Пользователь указан дважды').max(1000).optional(),
});
export const createCompanyRequest = companyInput;
export const updateCompanyRequest = companyInput.partial();

export const companyMember = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(COMPANY_ROLES),
});

export const companyResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  legal_name: z.string().nullable(),
  inn: z.string().nullable(),
  ogrn: z.string().nullable(),
  contact_name: z.string().nullable(),
  contact_email: z.string().nullable(),
  contact_phone: z.string().nullable(),
  modules: z.array(z.string()),
  is_active: z.boolean(),
  members_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const companyDetailResponse = companyResponse.extend({ members: z.array(companyMember) });
export type Company = z.infer<typeof companyResponse>;

export const companyListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(20),
  q: z.string().trim().max(200).optional(),
  is_active: z.enum(['true', 'false']).optional(),
});

/* Product keys */
export const createProductKeyRequest = z.strictObject({
  valid_until: z.iso.datetime({ offset: true }).nullable().optional(),
  modules: z.array(z.string().max(50)).max(50).default([]),
  max_activations: z.number().int().min(1).max(10_000).default(1),
  company_role: z.enum(COMPANY_ROLES).default('COMPANY_VIEWER'),
  comment: z.string().trim().max(500).optional(),
});
export const productKeyResponse = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  key_prefix: z.string(),
  company_role: z.enum(COMPANY_ROLES),
  modules: z.array(z.string()),
  valid_until: z.string().nullable(),
  max_activations: z.number().int(),
  activations: z.number().int(),
  comment: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked', 'exhausted']),
  created_at: z.string(),
});
export const createdProductKeyResponse = productKeyResponse.extend({ key: z.string() });
export const activateRequest = z.strictObject({ key: z.string().trim().min(1, MSG.required).max(100) });
export const activationResponse = z.object({
  company_id: z.number().int(),
  company_name: z.string(),
  role: z.enum(COMPANY_ROLES),
});
export const activationListResponse = z.object({
  items: z.array(
    z.object({
      company_id: z.number().int(),
      company_name: z.string(),
      key_prefix: z.string(),
      activated_at: z.string(),
    }),
  ),
});

export const PRODUCT_KEY_MSG = {
  notFound: 'Ключ не найден. Проверьте, что он введён без ошибок',
  expired: 'Срок действия ключа истёк',
  notYetValid: 'Ключ ещё не действует',
  revoked: 'Ключ отозван администратором',
  exhausted: 'Ключ уже активирован максимальное число раз',
  already: 'Вы уже активировали этот ключ',
  inactiveCompany: 'Компания этого ключа отключена',
} as const;

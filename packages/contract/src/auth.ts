import { z } from 'zod';
import { COMPANY_ROLES, USER_ROLES } from './permissions';

export const loginRequest = z
  .object({
    email: z.string().trim().min(1).max(254),
    password: z.string().min(1).max(1024),
  })
  .strict();
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({ '2fa_success': z.boolean() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const okResponse = z.object({ ok: z.literal(true) });

export const meCompany = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(COMPANY_ROLES).nullable(),
});

export const meResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES),
  is_2fa_enabled: z.boolean(),
  avatar_url: z.string().nullable(),
  allowed_ips: z.array(z.string()),
  companies: z.array(meCompany),
  pending_activation: z.boolean(),
});
export type Me = z.infer<typeof meResponse>;

/** `GET /me` through an API key: the key's own identity, never its owner's profile. */
export const keyIdentityResponse = z.object({
  kind: z.literal('api_key'),
  id: z.number().int(),
  name: z.string(),
  company: z.object({ id: z.number().int(), name: z.string() }),
  roles: z.array(z.object({ module: z.string(), access: z.enum(['read', 'write']) })),
  collector: z.boolean(),
  expires_at: z.string().nullable(),
});
export type KeyIdentity = z.infer<typeof keyIdentityResponse>;

export const versionResponse = z.object({ version: z.string() });
export const healthResponse = z.object({ status: z.enum(['ok', 'unavailable']) });

import { z } from 'zod';
import { bodyId, companyQuery } from './common';
import { MSG } from './messages';
import { ipOrCidrSchema } from './validation';

export const apiKeyRole = z.strictObject({
  /** A module code, or '*' for every module. */
  module: z.string().min(1).max(50),
  access: z.enum(['read', 'write']),
});
export const apiKeyRolesInput = z.strictObject({
  roles: z.array(apiKeyRole).max(50),
  collector: z.boolean().default(false),
});

export const createApiKeyRequest = z.strictObject({
  name: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong(200)),
  company_id: bodyId(),
  roles: z.array(apiKeyRole).max(50).default([]),
  collector: z.boolean().default(false),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  allowed_ips: z.array(ipOrCidrSchema).max(100).default([]),
});
export const updateApiKeyRequest = z.strictObject({
  name: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong(200)).optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  allowed_ips: z.array(ipOrCidrSchema).max(100).optional(),
  is_active: z.boolean().optional(),
});

export const apiKeyResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  owner_user_id: z.number().int(),
  prefix: z.string(),
  roles: z.array(z.object({ module: z.string(), access: z.enum(['read', 'write']) })),
  collector: z.boolean(),
  allowed_ips: z.array(z.string()),
  expires_at: z.string().nullable(),
  is_active: z.boolean(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  created_at: z.string(),
});
export const apiKeyWithSecretResponse = apiKeyResponse.extend({ secret: z.string() });
export const apiKeyRolesResponse = z.object({
  roles: z.array(z.object({ module: z.string(), access: z.enum(['read', 'write']) })),
  collector: z.boolean(),
});
export const apiKeyListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(20),
  company_id: companyQuery,
  q: z.string().trim().max(200).optional(),
});

/** Recognisable prefix of every Forpost API key secret. */
export const API_KEY_PREFIX = 'fp_';

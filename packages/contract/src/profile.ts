import { z } from 'zod';
import { IDENTITY_MSG, MSG } from './messages';
import { emailSchema, ipOrCidrSchema, optionalPasswordSchema, passwordSchema } from './validation';

export const updateProfileRequest = z
  .strictObject({
    name: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong(200)).optional(),
    avatar_image_key: z.number().int().positive().nullable().optional(),
    password: optionalPasswordSchema.optional(),
    password_repeat: z.string().max(1024).optional(),
    current_password: z.string().max(1024).optional(),
    allowed_ips: z.array(ipOrCidrSchema).max(100).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.password) {
      if (v.password !== v.password_repeat)
        ctx.addIssue({ code: 'custom', path: ['password_repeat'], message: MSG.passwordsDiffer });
      if (!v.current_password) ctx.addIssue({ code: 'custom', path: ['current_password'], message: MSG.required });
    }
    if (v.allowed_ips) {
      const seen = new Set<string>();
      for (const ip of v.allowed_ips) {
        const k = ip.trim().toLowerCase();
        if (seen.has(k)) ctx.addIssue({ code: 'custom', path: ['allowed_ips'], message: MSG.ipDuplicate });
        seen.add(k);
      }
    }
  });
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;

export const twoFactorRequest = z
  .strictObject({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Код должен состоять из 6 цифр')
      .optional(),
    recovery_code: z.string().trim().min(6).max(20).optional(),
  })
  .refine((v) => Boolean(v.code) !== Boolean(v.recovery_code), { message: 'Введите код из приложения или резервный код' });

export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauth_uri: z.string(), qr_data_url: z.string() });
export const twoFactorEnableRequest = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Код должен состоять из 6 цифр'),
});
export const twoFactorEnableResponse = z.object({ recovery_codes: z.array(z.string()) });
export const twoFactorDisableRequest = z
  .strictObject({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Код должен состоять из 6 цифр')
      .optional(),
    password: z.string().max(1024).optional(),
  })
  .refine((v) => Boolean(v.code) || Boolean(v.password), { message: 'Введите код из приложения или пароль' });

export const resetPasswordRequest = z.strictObject({ email: z.string().trim().max(254) });
export const setPasswordRequest = z.strictObject({
  token: z.string().trim().min(20).max(200),
  password: passwordSchema,
});

export const sessionResponse = z.object({
  id: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  device: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  current: z.boolean(),
});

export { emailSchema, IDENTITY_MSG };

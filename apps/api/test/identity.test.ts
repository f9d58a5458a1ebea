import { API_MSG } from '@forpost/contract/errors';
import { IDENTITY_MSG } from '@forpost/contract/profile';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../src/db/schema/index';
import { currentStep, hotp, totp } from '../src/lib/totp';
import { ADMIN, Client, createUser, setupApp, type TestContext } from './helpers';
import { mailText, startSmtp } from './smtp';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await setupApp({ SMTP_URL: smtp.url });
});
afterAll(() => smtp.close());

const STRONG = 'Новый-Пароль-2026!x';
let n = 0;
const newUser = async (extra: Partial<Parameters<typeof createUser>[1]> = {}) =>
  createUser(ctx, { email: `u${++n}@forpost.test`, role: 'ANALYST', ...extra });

async function enable2fa(c: Client) {
  const setup = await c.post('/me/2fa/setup');
  expect(setup.statusCode).toBe(200);
  const { secret, otpauth_uri, qr_data_url } = setup.json();
  expect(otpauth_uri).toContain(encodeURIComponent('Форпост'));
  expect(qr_data_url).toMatch(/^data:image\/png;base64,/);
  // Wrong code first: 2FA stays off.
  expect((await c.post('/me/2fa/enable', { code: '000000' })).statusCode).toBe(400);
  expect((await c.get('/me')).json().is_2fa_enabled).toBe(false);
  const r = await c.post('/me/2fa/enable', { code: totp(secret) });
  expect(r.statusCode).toBe(200);
  const codes: string[] = r.json().recovery_codes;
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  return { secret, codes };
}

describe('two-factor sign-in', () => {
  it('enable from the profile, then sign in with a code; a code works once; ±1 step drift accepted', async () => {
    const u = await newUser();
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    const { secret } = await enable2fa(c);
    expect((await c.get('/me')).json().is_2fa_enabled).toBe(true);

    const d = new Client(ctx);
    const step1 = await d.post('/auth/login', { email: u.email, password: ADMIN.password });
    expect(step1.json()).toEqual({ '2fa_success': false });
    expect(d.cookies.has('fp_access')).toBe(false);
    expect(d.cookies.has('fp_2fa')).toBe(true);
    expect((await d.get('/me')).statusCode).toBe(401);
    expect((await d.post('/auth/2fa', { code: '12345' })).statusCode).toBe(400);
    // The code of the next step (clock drift +1) is accepted.
    const code = hotp(secret, currentStep() + 1);
    const ok = await d.post('/auth/2fa', { code });
    expect(ok.statusCode).toBe(200);
    expect((await d.get('/me')).statusCode).toBe(200);

    // Replay of the same code in a new sign-in is refused.
    const e = new Client(ctx);
    await e.post('/auth/login', { email: u.email, password: ADMIN.password });
    const replay = await e.post('/auth/2fa', { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(IDENTITY_MSG.badCode);
    const fails = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.2fa_failed'));
    expect(fails.length).toBeGreaterThan(0);
  });

  it('a recovery code replaces a code, once only', async () => {
    const u = await newUser();
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    const { codes } = await enable2fa(c);
    const d = new Client(ctx);
    await d.post('/auth/login', { email: u.email, password: ADMIN.password });
    expect((await d.post('/auth/2fa', { recovery_code: codes[0] })).statusCode).toBe(200);
    const e = new Client(ctx);
    await e.post('/auth/login', { email: u.email, password: ADMIN.password });
    const again = await e.post('/auth/2fa', { recovery_code: codes[0] });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(IDENTITY_MSG.badRecovery);
    expect((await e.post('/auth/2fa', { recovery_code: codes[1] })).statusCode).toBe(200);
  });

  it('the second step without step one is refused', async () => {
    const r = await new Client(ctx).post('/auth/2fa', { code: '123456' });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe(IDENTITY_MSG.stepExpired);
  });

  it('turning 2FA off needs a current code or the password', async () => {
    const u = await newUser();
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    await enable2fa(c);
    expect((await c.post('/me/2fa/disable', { password: 'wrong-password-123' })).statusCode).toBe(400);
    expect((await c.get('/me')).json().is_2fa_enabled).toBe(true);
    expect((await c.post('/me/2fa/disable', { password: ADMIN.password })).statusCode).toBe(200);
    expect((await c.get('/me')).json().is_2fa_enabled).toBe(false);
  });
});

describe('password reset through a real SMTP server', () => {
  it('same answer for unknown emails; link works once; other sessions end; 2FA not bypassed', async () => {
    const u = await newUser({ name: 'Анна' });
    const other = new Client(ctx);
    await other.login(u.email, ADMIN.password);

    const before = smtp.mails.length;
    const c = new Client(ctx);
    const a = await c.post('/auth/resetpassword', { email: u.email });
    const b = await c.post('/auth/resetpassword', { email: 'nobody@forpost.test' });
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    await smtp.waitFor(before + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(before + 1); // none for the unknown email
    const mail = smtp.mails[before];
    expect(mail?.to).toEqual([u.email]);
    const text = mailText(mail?.raw ?? '');
    const link = /http:\/\/localhost:8080\/newpassword\?token=([A-Za-z0-9_%-]+)/.exec(text);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link?.[1] ?? '');
    expect(token.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits

    const weak = await c.post('/auth/setpassword', { token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().data.fields.password).toBe('Слишком слабый пароль');
    expect((await c.post('/auth/setpassword', { token, password: STRONG })).statusCode).toBe(200);
    const reused = await c.post('/auth/setpassword', { token, password: STRONG });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(IDENTITY_MSG.tokenInvalid);
    // The other device is signed out; the new password works.
    expect((await other.get('/me')).statusCode).toBe(401);
    await new Client(ctx).login(u.email, STRONG);
    const audit = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(u.id)));
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(JSON.stringify(audit)).not.toContain(STRONG);
  });

  it('a newer token kills the older one; an expired token is refused', async () => {
    const u = await newUser();
    const c = new Client(ctx);
    const start = smtp.mails.length;
    await c.post('/auth/resetpassword', { email: u.email });
    await smtp.waitFor(start + 1);
    await c.post('/auth/resetpassword', { email: u.email });
    await smtp.waitFor(start + 2);
    const tokenOf = (i: number) =>
      decodeURIComponent(/token=([A-Za-z0-9_%-]+)/.exec(mailText(smtp.mails[i]?.raw ?? ''))?.[1] ?? '');
    const first = tokenOf(start);
    const second = tokenOf(start + 1);
    expect((await c.post('/auth/setpassword', { token: first, password: STRONG })).statusCode).toBe(400);
    const { passwordTokens } = await import('../src/db/schema/index');
    await ctx.database.db
      .update(passwordTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordTokens.userId, u.id));
    expect((await c.post('/auth/setpassword', { token: second, password: STRONG })).statusCode).toBe(400);
  });

  it('a reset does not bypass 2FA', async () => {
    const u = await newUser();
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    await enable2fa(c);
    const start = smtp.mails.length;
    await c.post('/auth/resetpassword', { email: u.email });
    await smtp.waitFor(start + 1);
    const token = decodeURIComponent(/token=([A-Za-z0-9_%-]+)/.exec(mailText(smtp.mails[start]?.raw ?? ''))?.[1] ?? '');
    expect((await c.post('/auth/setpassword', { token, password: STRONG })).statusCode).toBe(200);
    const d = new Client(ctx);
    expect((await d.post('/auth/login', { email: u.email, password: STRONG })).json()).toEqual({ '2fa_success': false });
    expect(d.cookies.has('fp_access')).toBe(false);
  });
});

describe('allowed IPs', () => {
  it('IPv4 CIDR and IPv6 entries are enforced on sign-in, refresh and every request', async () => {
    const u = await newUser({});
    await ctx.database.db
      .update(users)
      .set({ allowedIps: ['10.0.0.0/8', '2001:db8::/32'] })
      .where(eq(users.id, u.id));
    const local = new Client(ctx, '127.0.0.1');
    const denied = await local.post('/auth/login', { email: u.email, password: ADMIN.password });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toMatch(/IP-адреса/);
    await new Client(ctx, '10.20.30.40').login(u.email, ADMIN.password);
    const v6 = new Client(ctx, '2001:db8::5');
    await v6.login(u.email, ADMIN.password);
    expect((await v6.get('/me')).statusCode).toBe(200);
    // The same cookies from another address are refused.
    const moved = new Client(ctx, '192.0.2.1');
    moved.cookies = new Map(v6.cookies);
    expect((await moved.get('/me')).statusCode).toBe(403);
    expect((await moved.post('/auth/refresh')).statusCode).toBe(403);
  });

  it('a user cannot save a list that excludes the address they save from', async () => {
    const u = await newUser();
    const c = new Client(ctx, '10.1.1.1');
    await c.login(u.email, ADMIN.password);
    const bad = await c.patch('/me', { allowed_ips: ['192.168.0.0/16'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields.allowed_ips).toContain('10.1.1.1');
    const malformed = await c.patch('/me', { allowed_ips: ['10.0.0.0/33'] });
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.json().data.fields)).toContain('Некорректный IP или CIDR');
    const ok = await c.patch('/me', { allowed_ips: ['10.0.0.0/8'] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().allowed_ips).toEqual(['10.0.0.0/8']);
    const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'user.allowed_ips_changed'));
    expect(rows.length).toBe(1);
  });
});

describe('brute force', () => {
  it('10 failures in 15 minutes lock the account from that address with a Russian 429, even for the right password', async () => {
    const u = await newUser();
    const c = new Client(ctx, '10.9.9.9');
    for (let i = 0; i < 10; i++)
      expect((await c.post('/auth/login', { email: u.email, password: `wrong-${i}` })).statusCode).toBe(401);
    // The lock is per account + address (lockout.test.ts: other addresses still get in).
    const locked = await c.post('/auth/login', { email: u.email, password: ADMIN.password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Слишком много неудачных попыток/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const lockouts = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.lockout'));
    expect(lockouts.length).toBeGreaterThan(0);
  });
});

describe('profile', () => {
  it('validates with the spec messages, trims the name, and changing the password needs the current one', async () => {
    const u = await newUser();
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    expect((await c.patch('/me', { name: '   ' })).json().data.fields.name).toBe('Обязательное поле');
    expect(
      (
        await c.patch('/me', { password: 'weakpassword', password_repeat: 'weakpassword', current_password: ADMIN.password })
      ).json().data.fields.password,
    ).toBe('Слишком слабый пароль');
    expect(
      (await c.patch('/me', { password: STRONG, password_repeat: `${STRONG}x`, current_password: ADMIN.password })).json().data
        .fields.password_repeat,
    ).toBe('Пароли не совпадают');
    expect((await c.patch('/me', { password: `${STRONG}${'x'.repeat(1024)}`, password_repeat: 'x' })).statusCode).toBe(400);
    expect((await c.patch('/me', { password: STRONG, password_repeat: STRONG, current_password: 'nope' })).json().message).toBe(
      IDENTITY_MSG.wrongPassword,
    );
    const ok = await c.patch('/me', { name: '  Иван Петров  ' });
    expect(ok.json().name).toBe('Иван Петров');
    const other = new Client(ctx);
    await other.login(u.email, ADMIN.password);
    expect(
      (await c.patch('/me', { password: STRONG, password_repeat: STRONG, current_password: ADMIN.password })).statusCode,
    ).toBe(200);
    expect((await other.get('/me')).statusCode).toBe(401); // other sessions end
    expect((await c.get('/me')).statusCode).toBe(200); // this one stays
  });

  it('lists sessions and ends one or all others', async () => {
    const u = await newUser();
    const a = new Client(ctx);
    await a.login(u.email, ADMIN.password);
    const b = new Client(ctx);
    await b.req(
      'POST',
      '/auth/login',
      { email: u.email, password: ADMIN.password },
      { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36' },
    );
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    const list = (await a.get('/me/sessions')).json().items;
    expect(list).toHaveLength(3);
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(list.map((s: { device: string }) => s.device)).toContain('Chrome 156 · Linux');
    const bId = list.find((s: { device: string }) => s.device.startsWith('Chrome'))?.id;
    expect((await a.del(`/me/sessions/${bId}`)).statusCode).toBe(204);
    expect((await b.get('/me')).statusCode).toBe(401);
    expect((await a.del('/me/sessions')).json()).toEqual({ ended: 1 });
    expect((await c.get('/me')).statusCode).toBe(401);
    expect((await a.get('/me')).statusCode).toBe(200);
  });
});

it('never writes a password, code or token into the audit log', async () => {
  const rows = await ctx.database.db.select().from(auditLog);
  const all = JSON.stringify(rows);
  expect(all).not.toContain(ADMIN.password);
  expect(all).not.toContain(STRONG);
  expect(rows.length).toBeGreaterThan(10);
  expect(API_MSG.invalidCredentials).toBeTruthy();
});

/** A multipart body by hand: form fields first, then the file part. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----forpost${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
  );
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
// A valid 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('avatar', () => {
  async function upload(c: Client, file: { name: string; type: string; data: Buffer }) {
    const m = multipart({ kind: 'avatar' }, file);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/v1/docs',
      remoteAddress: '127.0.0.1',
      headers: {
        cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        origin: 'http://localhost:8080',
        'content-type': m.contentType,
      },
      payload: m.payload,
    });
  }

  it('a PNG avatar is stored as a doc of kind avatar and shown in the profile', async () => {
    const u = await newUser();
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    const up = await upload(c, { name: 'me.png', type: 'image/png', data: PNG });
    expect(up.statusCode).toBe(201);
    const doc = up.json();
    expect(doc.kind).toBe('avatar');
    const r = await c.patch('/me', { avatar_image_key: doc.id });
    expect(r.statusCode).toBe(200);
    expect(r.json().avatar_url).toBe(`/api/v1/docs/${doc.id}/content`);
    const img = await c.get(`/docs/${doc.id}/content`);
    expect(img.statusCode).toBe(200);
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.rawPayload.equals(PNG)).toBe(true);
  });

  it("a non-image, an oversized file or someone else's doc is refused and nothing changes", async () => {
    const u = await newUser();
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    const html = await upload(c, {
      name: 'evil.png',
      type: 'image/png',
      data: Buffer.from('<html><script>alert(1)</script></html>'),
    });
    expect(html.statusCode).toBe(400);
    expect(html.json().message).toMatch(/[а-я]/i);
    const big = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]);
    const large = await upload(c, { name: 'big.png', type: 'image/png', data: big });
    expect(large.statusCode).toBe(413);
    const other = await newUser();
    const o = new Client(ctx);
    await o.login(other.email, ADMIN.password);
    const theirs = (await upload(o, { name: 'o.png', type: 'image/png', data: PNG })).json();
    const steal = await c.patch('/me', { avatar_image_key: theirs.id });
    expect(steal.statusCode).toBe(400);
    expect((await c.get('/me')).json().avatar_url).toBeNull();
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { randomToken } from './crypto';
import type { Logger } from './logger';
import { guardedConnect, type OutboundPolicy, OutboundRefusedError } from './outbound';

interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Another sender than the mailer's (e.g. the abuse desk address of takedown requests). */
  from?: string;
  /** A Message-ID of the caller's (replies can then be matched); nodemailer makes one otherwise. */
  messageId?: string;
  headers?: Record<string, string>;
}
interface SentMail {
  messageId: string;
  file?: string;
  /**
   * Recipients the SMTP server refused while accepting the message for the others (when it refuses
   * every recipient, `send` throws instead).
   */
  rejected?: string[];
}
export interface Mailer {
  send(m: MailMessage): Promise<SentMail>;
}

const addressOf = (a: unknown): string =>
  typeof a === 'string'
    ? a
    : a && typeof a === 'object' && 'address' in a
      ? String((a as { address: unknown }).address)
      : String(a);

/** Header injection guard: no CR/LF in anything that becomes a header. */
function assertHeaderSafe(v: string): void {
  if (/[\r\n]/.test(v)) throw new Error('header injection attempt');
}

/** A failed dial in nodemailer's own terms (its callers read `code`): no DNS, a timeout, no connection. */
function asNodemailerError(err: NodeJS.ErrnoException): Error {
  if (err instanceof OutboundRefusedError) return err;
  const dns = err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'ENODATA';
  const code = dns ? 'EDNS' : err.code === 'ETIMEDOUT' ? 'ETIMEDOUT' : 'ECONNECTION';
  const message = code === 'ETIMEDOUT' ? 'Connection timeout' : err.message;
  return Object.assign(new Error(message), { code, errno: err.code, syscall: err.syscall });
}

/**
 * nodemailer's `getSocket`: the SMTP server's TCP connection opened through the SSRF guard (the host
 * resolved, every address checked, the checked one dialled); STARTTLS/SMTPS still verify the host name.
 */
function guardedSocket(policy: OutboundPolicy) {
  return (
    o: { host?: string; port?: number | string; secure?: boolean; connectionTimeout?: number },
    done: (err: Error | null, socket?: { connection: import('node:net').Socket }) => void,
  ) => {
    const port = Number(o.port) || (o.secure ? 465 : 587);
    guardedConnect(o.host || 'localhost', port, policy, Number(o.connectionTimeout) || 10_000).then(
      (connection) => done(null, { connection }),
      (err: NodeJS.ErrnoException) => done(asNodemailerError(err)),
    );
  };
}

/**
 * nodemailer to SMTP_URL; without one, each message is written as an .eml file to DATA_DIR/mail
 * (so reset links work on a laptop) and the log says where. `outbound`: connect through the SSRF
 * guard (an address from the settings); absent for the operator's own SMTP_URL.
 */
export function createMailer(opts: {
  smtpUrl?: string | (() => string | undefined);
  from: string;
  dataDir: string;
  log?: Pick<Logger, 'info'>;
  outbound?: OutboundPolicy;
}): Mailer {
  const dir = path.join(opts.dataDir, 'mail');
  return {
    async send(m) {
      const to = Array.isArray(m.to) ? m.to : [m.to];
      for (const x of [...to, m.subject, m.from ?? '', m.messageId ?? '', ...Object.values(m.headers ?? {})]) assertHeaderSafe(x);
      const smtp = typeof opts.smtpUrl === 'function' ? opts.smtpUrl() : opts.smtpUrl;
      const message = {
        from: m.from ?? opts.from,
        to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        attachments: m.attachments,
        ...(m.messageId ? { messageId: m.messageId } : {}),
        ...(m.headers ? { headers: m.headers } : {}),
      };
      if (smtp) {
        // Built as a transport object: nodemailer.createTransport({url, …}) keeps the URL's options only and
        // would drop the timeouts and the guarded socket. Parameters in the URL's query string still win.
        const transport = nodemailer.createTransport(
          new SMTPTransport({
            url: smtp,
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 20_000,
            ...(opts.outbound ? { getSocket: guardedSocket(opts.outbound) } : {}),
          } as SMTPTransport.Options),
        );
        const info = await transport.sendMail(message);
        transport.close();
        const rejected = ((info.rejected ?? []) as unknown[]).map(addressOf).filter(Boolean);
        return { messageId: String(info.messageId), ...(rejected.length ? { rejected } : {}) };
      }
      const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = (await transport.sendMail(message)) as { messageId: string; message: Buffer };
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomToken(6)}.eml`);
      writeFileSync(file, info.message, { mode: 0o600 });
      opts.log?.info({ file }, 'mail written to file (SMTP_URL is not set)');
      return { messageId: info.messageId, file };
    },
  };
}

/**
 * The mailer of the SMTP settings in configs (`smtp_url`, `mail_from`), read anew for each message so
 * a changed setting applies at once; without an SMTP URL, messages go to .eml files (see createMailer).
 * A server an administrator set connects through the SSRF guard (`outbound`); the operator's SMTP_URL
 * (`operatorSmtpUrl`, the setting's default) does not — a relay on localhost or in the private network is usual.
 */
export async function mailerFromSettings(
  configs: { get(key: 'smtp_url' | 'mail_from'): Promise<unknown> },
  opts: {
    mailFrom: string;
    dataDir: string;
    log?: Pick<Logger, 'info'>;
    outbound: OutboundPolicy;
    operatorSmtpUrl?: string;
  },
): Promise<Mailer> {
  const smtp = String(await configs.get('smtp_url')).trim();
  const from = String(await configs.get('mail_from')) || opts.mailFrom;
  const operators = smtp !== '' && smtp === opts.operatorSmtpUrl?.trim();
  return createMailer({
    smtpUrl: smtp || undefined,
    from,
    dataDir: opts.dataDir,
    log: opts.log,
    ...(operators ? {} : { outbound: opts.outbound }),
  });
}

/**
 * `work`, abandoned after `ms`: the promise rejects with `expired()` (called once, when the time is up)
 * while the work itself goes on, unobserved. A mail attempt's time limit — the transport's own
 * timeouts do not cover a server that keeps the session alive but never answers.
 */
export async function withinTime<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  work.catch(() => undefined); // settles later, after the time is up
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(expired()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The mailer a service (reports, mailings) sends with: the settings' SMTP server or the operator's,
 * read at each send — one place for the options both pass.
 */
export function settingsMailer(
  configs: { get(key: 'smtp_url' | 'mail_from'): Promise<unknown> },
  config: { mailFrom: string; dataDir: string; outboundAllowPrivate: boolean; smtpUrl?: string },
  log?: Pick<Logger, 'info'>,
): () => Promise<Mailer> {
  return () =>
    mailerFromSettings(configs, {
      mailFrom: config.mailFrom,
      dataDir: config.dataDir,
      log,
      outbound: { allowPrivate: config.outboundAllowPrivate },
      operatorSmtpUrl: config.smtpUrl,
    });
}

/*
 * One delivery path for what the API mails on its own (reports, mailings): the mailer from the
 * settings (or a fixed one), one attempt under one time limit, and the sorting of SMTP errors into a
 * Russian reason and whether another attempt is safe. The callers keep their rows and their wording.
 */
import { REPORT_SEND_ERRORS } from '@forpost/contract/reports';
import type { Logger } from './logger';
import { type Mailer, settingsMailer, withinTime } from './mailer';
import { OutboundRefusedError } from './outbound';

type MailMessage = Parameters<Mailer['send']>[0];
type SentMail = Awaited<ReturnType<Mailer['send']>>;

/** Our own time limit ended the attempt (`sendOutcome` reads the code). */
const timedOut = () => Object.assign(new Error('SMTP-сервер не ответил вовремя'), { code: 'ESENDTIMEOUT' });

/** An attempt that failed: the error, and whether the message had already gone to the transport. */
export class MailAttemptError extends Error {
  constructor(
    readonly reason: unknown,
    readonly handedOver: boolean,
  ) {
    super((reason as Error)?.message || String(reason));
  }
}

export interface DeliveryDeps {
  configs: { get(key: 'smtp_url' | 'mail_from'): Promise<unknown> };
  config: { mailFrom: string; dataDir: string; outboundAllowPrivate: boolean; smtpUrl?: string };
  log?: Pick<Logger, 'info'>;
  /** A fixed mailer (tests); by default one is made per message from the SMTP settings. */
  mailer?: Mailer;
  /** One attempt is abandoned after this many ms. */
  timeoutMs: number;
}

export function createDelivery(deps: DeliveryDeps) {
  const fromSettings = settingsMailer(deps.configs, deps.config, deps.log);
  const mailer = async (): Promise<Mailer> => deps.mailer ?? fromSettings();

  /**
   * One attempt: `prepare` reads what the message needs (or answers why nothing is to be sent — passed
   * through), then the message goes to the transport; the whole of it under the time limit. A failure
   * rejects with a `MailAttemptError` that tells whether the message was handed over (from then on an
   * abandoned attempt may still deliver it).
   */
  async function attempt<T, X extends string>(
    prepare: () => Promise<{ message: MailMessage; keep: T } | X>,
  ): Promise<{ sent: SentMail; keep: T } | X> {
    let handedOver = false;
    let abandoned = false;
    const work = (async () => {
      const p = await prepare();
      if (typeof p === 'string') return p;
      const m = await mailer();
      // Timed out while preparing: this attempt must not mail anything any more.
      if (abandoned) throw timedOut();
      handedOver = true;
      return { sent: await m.send(p.message), keep: p.keep };
    })();
    try {
      return await withinTime(work, deps.timeoutMs, () => {
        abandoned = true;
        return timedOut();
      });
    } catch (e) {
      throw new MailAttemptError(e, handedOver);
    }
  }

  return { mailer, attempt };
}
export type Delivery = ReturnType<typeof createDelivery>;

/**
 * What a failed attempt means: a Russian reason (the SMTP server's own reply, if any, in
 * parentheses) and whether another attempt is safe. It is safe only when nothing can have been
 * accepted: the server could not be reached or never greeted (nodemailer: `ETIMEDOUT` «Greeting
 * never received» / «Connection timeout», `EDNS`, `ESOCKET` from connecting or the TLS handshake,
 * `ECONNECTION` with the server's refusal), refused the login (`EAUTH`, `ETLS`, `EPROTOCOL`), or
 * answered with a 4xx/5xx reply (the message was refused, not accepted). Anything else after the
 * session started — the socket going silent (`ETIMEDOUT` «Timeout»: a server scanning the message
 * before its reply looks exactly so), the connection breaking without a reply, our own time limit
 * once the message was handed to the transport — is ambiguous: the server may have taken the
 * message, so the send ends failed without a retry (a retry would mail it twice).
 */
export function sendOutcome(e: unknown, handedOver: boolean): { reason: string; retry: boolean } {
  const err = e as { code?: string; responseCode?: number; response?: string; message?: string; syscall?: string };
  const reply = (err.response ?? '')
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, 200);
  const withReply = (reason: string) => (reply ? `${reason} (${reply})` : reason);
  const message = err.message ?? '';
  const replied = (err.responseCode ?? 0) >= 400;
  if (err.code === 'ESENDTIMEOUT')
    return handedOver
      ? { reason: REPORT_SEND_ERRORS.unconfirmed, retry: false }
      : { reason: REPORT_SEND_ERRORS.timeout, retry: true };
  if (err.code === 'ETIMEDOUT')
    return /^(Greeting never received|Connection timeout)/.test(message)
      ? { reason: REPORT_SEND_ERRORS.timeout, retry: true }
      : { reason: REPORT_SEND_ERRORS.unconfirmed, retry: false };
  if (err.code === 'ESOCKET')
    // A socket error while reading or writing an open session (a reset, a broken pipe) may come after the message.
    return err.syscall === 'read' || err.syscall === 'write'
      ? { reason: REPORT_SEND_ERRORS.interrupted, retry: false }
      : { reason: REPORT_SEND_ERRORS.unreachable, retry: true };
  if (err.code === 'ECONNECTION' && !replied && /^Connection closed unexpectedly/.test(message))
    return { reason: REPORT_SEND_ERRORS.interrupted, retry: false };
  if (err.code === 'EAUTH') return { reason: withReply(REPORT_SEND_ERRORS.auth), retry: true };
  if (err.code === 'EENVELOPE') return { reason: withReply(REPORT_SEND_ERRORS.recipients), retry: true };
  if (err.code === 'EMESSAGE' || replied) return { reason: withReply(REPORT_SEND_ERRORS.rejected), retry: true };
  if (err.code === 'ECONNECTION' || err.code === 'EDNS') return { reason: REPORT_SEND_ERRORS.unreachable, retry: true };
  if (err.code === 'ENOENT') return { reason: REPORT_SEND_ERRORS.noFile, retry: true };
  // The SSRF guard refused the server's address (lib/outbound.ts): nothing was sent.
  if (e instanceof OutboundRefusedError) return { reason: e.message, retry: true };
  // No nodemailer code: an error of our own or of composing the message, before anything went out.
  return { reason: REPORT_SEND_ERRORS.other, retry: true };
}

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps every message, for tests. `state.failNext` makes it refuse
 * messages (550 at the end of the data), `state.refused` refuses those addresses at RCPT TO (550), and
 * `replyAfterMs` answers the end of the data only that much later (the message is kept at once: a
 * server scanning for viruses before it says 250).
 */
export async function startSmtp(opts: { replyAfterMs?: number } = {}) {
  const mails: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const state = { failNext: 0, refused: new Set<string>() };
  let replied = 0;
  const reply = (cb: (err?: Error) => void, err?: Error) => {
    const done = () => {
      replied++;
      cb(err);
    };
    if (opts.replyAfterMs) setTimeout(done, opts.replyAfterMs);
    else done();
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (state.refused.has(address.address.toLowerCase()))
        return cb(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.failNext > 0) {
          state.failNext--;
          return reply(cb, Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        }
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const w of waiters.splice(0)) w();
        reply(cb);
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    mails,
    state,
    async waitFor(n: number, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      return mails;
    },
    /** Resolves once the server has answered `n` messages (with `replyAfterMs`: taken them for good). */
    async replied(n: number) {
      while (replied < n) await new Promise((r) => setTimeout(r, 50));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The decoded text of every MIME part (base64 or quoted-printable), joined: enough to read bodies and links. */
export function mailText(raw: string): string {
  const out: string[] = [];
  const sections = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const sec of sections) {
    const m = /^([\s\S]*?)\r?\n\r?\n([\s\S]*)$/.exec(sec);
    if (!m) continue;
    const headers = m[1] ?? '';
    let body = m[2] ?? '';
    const enc = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
    if (enc === 'base64') body = Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8');
    else if (enc === 'quoted-printable') {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      body = Buffer.from(bytes, 'latin1').toString('utf8');
    }
    out.push(body);
  }
  return out.join('\n');
}

/** A decoded header value (RFC 2047 encoded words). */
export function mailHeader(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1] ?? '';
  return line.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, t: string, v: string) =>
    t.toLowerCase() === 'b'
      ? Buffer.from(v, 'base64').toString('utf8')
      : Buffer.from(
          v.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

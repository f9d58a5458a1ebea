/*
 * A syslog output's connection: TCP (or TLS over it) to the configured host through the SSRF guard,
 * frames written with RFC 6587 octet counting. A batch is "sent" when the kernel took every byte (the
 * write callbacks ran); TCP syslog has no acknowledgement, so a connection that breaks mid-batch
 * makes the batch's deliveries due again (at least once).
 */
import type { Socket } from 'node:net';
import tls from 'node:tls';
import { guardedConnect, type OutboundPolicy } from '../../lib/outbound';

export interface SyslogConn {
  write(frames: Buffer[]): Promise<void>;
  close(): void;
}

export async function connectSyslog(
  o: { host: string; port: number; tls: boolean /** Extra trusted CA (PEM) besides the system's roots. */; ca?: string },
  outbound: OutboundPolicy,
  timeoutMs: number,
): Promise<SyslogConn> {
  const raw = await guardedConnect(o.host, o.port, outbound, timeoutMs);
  let socket: Socket = raw;
  if (o.tls) {
    socket = await new Promise<Socket>((resolve, reject) => {
      const s = tls.connect({
        socket: raw,
        host: o.host,
        servername: /^[\d.:[\]]+$/.test(o.host) ? undefined : o.host,
        ...(o.ca ? { ca: [...tls.rootCertificates, o.ca] } : {}),
      });
      s.setTimeout(timeoutMs, () => s.destroy(new Error(`TLS с ${o.host}:${o.port} не установлен за ${timeoutMs} мс`)));
      s.once('secureConnect', () => {
        s.setTimeout(0);
        s.removeAllListeners('error');
        resolve(s);
      });
      s.once('error', reject);
    });
  }
  let broken: Error | null = null;
  socket.on('error', (e) => {
    broken = e;
  });
  socket.on('close', () => {
    broken ??= new Error('Соединение закрыто сервером syslog');
  });
  return {
    async write(frames) {
      if (broken) throw broken;
      const all = Buffer.concat(frames);
      await new Promise<void>((resolve, reject) => {
        socket.write(all, (err) => (err ? reject(err) : resolve()));
      });
      if (broken) throw broken;
    },
    close() {
      socket.end();
    },
  };
}

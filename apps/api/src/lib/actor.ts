import type { FastifyRequest } from 'fastify';
import type { AuditActor } from './audit';

/** Who is acting, for the audit log: user or API key, address, user agent. */
export function actorOf(req: FastifyRequest): AuditActor {
  return {
    userId: req.auth?.user.id ?? null,
    keyId: req.auth?.keyId ?? null,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
  };
}

/* The audit log: its read-only routes (entries are written through lib/audit.ts). */
export { auditRoutes } from './audit.routes';

/* The audit page's names come from the contract: the same codes the API writes (AUDIT_ACTIONS). */
import { AUDIT_ACTIONS, AUDIT_ENTITY_LABELS } from '@forpost/contract/audit';

export { AUDIT_ACTION_PREFIXES, AUDIT_ENTITY_LABELS } from '@forpost/contract/audit';

export const actionLabel = (a: string): string | undefined => (AUDIT_ACTIONS as Record<string, string>)[a];
export const entityLabel = (e: string): string => AUDIT_ENTITY_LABELS[e] ?? e;

/* The audit page's names come from the contract: the same codes the API writes (AUDIT_ACTIONS). */
import { AUDIT_ACTIONS, AUDIT_ENTITY_LABELS } from '@forpost/contract/audit';
import { getModule, isModuleCode } from '@forpost/contract/modules';

export { AUDIT_ACTION_PREFIXES, AUDIT_ENTITY_LABELS } from '@forpost/contract/audit';

export const actionLabel = (a: string): string | undefined => (AUDIT_ACTIONS as Record<string, string>)[a];
/** `event.<module>`: «Событие (Домены)». */
export const entityLabel = (e: string): string => {
  const code = e.startsWith('event.') ? e.slice(6) : '';
  if (isModuleCode(code)) return `Событие (${getModule(code).name})`;
  return AUDIT_ENTITY_LABELS[e] ?? e;
};

/** The words an entry carries about its change (`meta.summary`: module, company, what changed). */
export const summaryOf = (meta: unknown): string | undefined => {
  const s = meta && typeof meta === 'object' ? (meta as { summary?: unknown }).summary : undefined;
  return typeof s === 'string' && s ? s : undefined;
};

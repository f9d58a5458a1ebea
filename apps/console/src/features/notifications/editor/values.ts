import { MAILING_DEFAULT_MAX_EVENTS, type Mailing, type MailingFilters, type MailingFrequency } from '@forpost/contract/mailings';
import type { MailingInput } from '../api/mutations';

/** The company select's value for «Все компании» (company_id null in the API). */
export const ALL = 'all';

/** The fields of the mailing form: the API body flattened (filters and params at the top level). */
export interface MailingFormValues {
  name: string;
  company_id?: number | typeof ALL;
  recipients: string[];
  modules: MailingFilters['modules'];
  statuses: string[];
  priorities: string[];
  sources: MailingFilters['sources'];
  tags: number[];
  /** The events' assignee: a user id, 'none' (unassigned), null (anyone). */
  assignee: MailingFilters['assignee'];
  text: string;
  /** «Переходы наблюдения»: empty = the mailing is about new events; else about these watch transitions. */
  transitions: MailingFilters['transitions'];
  frequency: MailingFrequency;
  hour: number;
  weekday: number;
  quiet: boolean;
  quiet_from: number;
  quiet_to: number;
  format: 'html' | 'text';
  max_events: number;
  is_active: boolean;
}

/** The form's values of a mailing, or the defaults of a new one (the header's company, else «Все компании» if allowed). */
export function toValues(m: Mailing | undefined, companyId: number | undefined, allAllowed: boolean): MailingFormValues {
  if (!m) {
    return {
      name: '',
      company_id: companyId ?? (allAllowed ? ALL : undefined),
      recipients: [],
      modules: [],
      statuses: [],
      priorities: ['critical', 'high'],
      sources: [],
      tags: [],
      assignee: null,
      text: '',
      transitions: [],
      frequency: 'instant',
      hour: 9,
      weekday: 1,
      quiet: false,
      quiet_from: 22,
      quiet_to: 8,
      format: 'html',
      max_events: MAILING_DEFAULT_MAX_EVENTS,
      is_active: true,
    };
  }
  return {
    name: m.name,
    company_id: m.company_id ?? ALL,
    recipients: m.recipients,
    ...m.filters,
    assignee: m.filters.assignee ?? null,
    transitions: m.filters.transitions ?? [],
    frequency: m.params.frequency,
    hour: m.params.hour,
    weekday: m.params.weekday,
    quiet: m.params.quiet_hours !== null,
    quiet_from: m.params.quiet_hours?.from ?? 22,
    quiet_to: m.params.quiet_hours?.to ?? 8,
    format: m.params.format,
    max_events: m.params.max_events,
    is_active: m.is_active,
  };
}

/** The company and event filters, as the API takes them (also for the preview while editing). */
export function filtersBody(v: Partial<MailingFormValues>) {
  return {
    company_id: v.company_id === ALL || v.company_id === undefined ? null : v.company_id,
    filters: {
      modules: v.modules ?? [],
      statuses: v.statuses ?? [],
      priorities: v.priorities ?? [],
      sources: v.sources ?? [],
      tags: v.tags ?? [],
      assignee: v.assignee ?? null,
      text: v.text ?? '',
      transitions: v.transitions ?? [],
    },
  };
}

/** The assignee filter as its select holds it: no value = anyone, 'none' = unassigned, a user id as text. */
export function assigneeToSelect(v: MailingFilters['assignee'] | undefined): string | undefined {
  return v === null || v === undefined ? undefined : String(v);
}

/** The select's value back as the API takes it. */
export function assigneeFromSelect(s: string | undefined): MailingFilters['assignee'] {
  if (s === undefined || s === '') return null;
  if (s === 'none') return 'none';
  const id = Number(s);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** POST / PATCH body of the form's values. */
export function toBody(v: MailingFormValues): MailingInput {
  return {
    name: v.name,
    recipients: v.recipients,
    ...filtersBody(v),
    params: {
      frequency: v.frequency,
      hour: v.hour,
      weekday: v.weekday,
      quiet_hours: v.quiet ? { from: v.quiet_from, to: v.quiet_to } : null,
      format: v.format,
      max_events: v.max_events,
    },
    is_active: v.is_active,
  };
}

/** API field path → the form field showing its error (quiet hours errors land on the switch). */
export function formField(path: string): string {
  if (path.startsWith('recipients')) return 'recipients';
  if (path.startsWith('filters.')) return path.split('.')[1] ?? path;
  if (path.startsWith('params.quiet_hours')) return 'quiet';
  if (path.startsWith('params.')) return path.split('.')[1] ?? path;
  return path;
}

/* API paths of the event engine (relative to /api/v1, as `http` takes them). */
import type { ModuleCode } from '@forpost/contract/modules';

const events = (code: ModuleCode) => `modules/${code}/events`;

export const paths = {
  events,
  event: (code: ModuleCode, id: number) => `${events(code)}/${id}`,
  statuses: (code: ModuleCode) => `${events(code)}/statuses`,
  priorities: (code: ModuleCode) => `${events(code)}/priorities`,
  decisions: (code: ModuleCode) => `${events(code)}/decisions`,
  history: (code: ModuleCode, id: number) => `${events(code)}/${id}/history`,
  related: (code: ModuleCode, id: number) => `${events(code)}/${id}/related`,
  actions: (code: ModuleCode, id: number) => `${events(code)}/${id}/actions`,
  /** One action for a list of events (modules with actions). */
  batchActions: (code: ModuleCode) => `${events(code)}/actions`,
  /** «Все N по фильтру»: start (POST a change or action, DELETE), then the job's progress. */
  bulk: (code: ModuleCode) => `${events(code)}/bulk`,
  bulkJob: (code: ModuleCode, id: number) => `${events(code)}/bulk/${id}`,
  ml: (code: ModuleCode, id: number) => `${events(code)}/${id}/ml`,
  mlRequeue: (code: ModuleCode, id: number) => `${events(code)}/${id}/ml/requeue`,
  cardReveal: (code: ModuleCode, id: number) => `${events(code)}/${id}/reveal`,
  snapshots: (code: ModuleCode, id: number) => `modules/${code}/events/snapshots/${id}`,
  repoFiles: (code: ModuleCode, id: number) => `modules/${code}/events/${id}/files`,
  repoFile: (code: ModuleCode, id: number, fileId: number) => `modules/${code}/events/${id}/files/${fileId}`,
  linkedLeaks: (code: ModuleCode, id: number) => `modules/${code}/events/${id}/leaks`,
  leakNames: 'modules/accounts/leaknames',
  merchantCategories: (kind: 'breach' | 'questionable') => `modules/merchant/events/${kind}_categories`,
  mediaTypes: 'modules/media/types',
  leakTypes: 'modules/leaks/events/types',
  leaks: 'modules/leaks',
  tags: 'tags',
  comments: 'comments',
  comment: (id: number) => `comments/${id}`,
  docs: 'docs',
  doc: (id: number) => `docs/${id}`,
};

/** Where the browser loads a stored file (thumbnails, downloads): same origin, the session cookie goes along. */
export const docContentUrl = (id: number) => `/api/v1/docs/${id}/content`;

/*
 * Console-side types of the event engine, inferred from the contract's zod schemas (never written
 * twice). Per-module schemas are built at run time from the registry, so their module fields are
 * `unknown` here: cells and detail fields read them through the descriptor.
 */

import type { mlInfoResponse } from '@forpost/contract/classifier';
import type { commentItem, commentListResponse } from '@forpost/contract/comments';
import type { docItem } from '@forpost/contract/docs';
import type {
  attachmentItem,
  batchResponse,
  cardRevealResponse,
  categoriesResponse,
  commonEventShape,
  decisionsResponse,
  eventActionResponse,
  eventHistoryResponse,
  eventListResponse,
  prioritiesResponse,
  statusesResponse,
} from '@forpost/contract/events';
import type {
  leakListResponse,
  leakNamesResponse,
  leakTypeListResponse,
  linkedLeaksResponse,
  mediaTypeListResponse,
  repoFileCreateRequest,
  repoFilesResponse,
  snapshotsResponse,
} from '@forpost/contract/events-extras';
import type { tagListResponse } from '@forpost/contract/tags';
import type { z } from 'zod';

/** One event as the API lists it: the common fields (typed) and the module's own (by key). */
export type EventItem = z.infer<z.ZodObject<typeof commonEventShape>> & { decision_id?: number | null } & Record<string, unknown>;
export type Attachment = z.infer<typeof attachmentItem>;
/** GET /modules/{code}/events/{id}: the event with its attachments and comment count. */
export type EventDetail = EventItem & { comments_count: number; attachments: Attachment[] };
export type EventList = Omit<z.infer<ReturnType<typeof eventListResponse>>, 'items'> & { items: EventItem[] };

export type StatusItem = z.infer<typeof statusesResponse>['items'][number];
export type PriorityItem = z.infer<typeof prioritiesResponse>['items'][number];
export type DecisionItem = z.infer<typeof decisionsResponse>['items'][number];
export type StatusesResponse = z.infer<typeof statusesResponse>;
export type PrioritiesResponse = z.infer<typeof prioritiesResponse>;
export type DecisionsResponse = z.infer<typeof decisionsResponse>;
export type CategoriesResponse = z.infer<typeof categoriesResponse>;

export type HistoryResponse = z.infer<typeof eventHistoryResponse>;
export type HistoryItem = HistoryResponse['items'][number];
export type ActionResponse = z.infer<typeof eventActionResponse>;
export type BatchResponse = z.infer<typeof batchResponse> & { undo_token?: string | null };
export type CardRevealResponse = z.infer<typeof cardRevealResponse>;

export type TagList = z.infer<typeof tagListResponse>;
export type TagItem = TagList['items'][number];
export type CommentItem = z.infer<typeof commentItem>;
export type CommentList = z.infer<typeof commentListResponse>;
export type DocItem = z.infer<typeof docItem>;

export type SnapshotsResponse = z.infer<typeof snapshotsResponse>;
export type RepoFilesResponse = z.infer<typeof repoFilesResponse>;
export type RepoFile = RepoFilesResponse['items'][number];
export type RepoFileInput = z.input<typeof repoFileCreateRequest>;
export type LinkedLeaksResponse = z.infer<typeof linkedLeaksResponse>;
export type LeakNamesResponse = z.infer<typeof leakNamesResponse>;
export type MediaTypeList = z.infer<typeof mediaTypeListResponse>;
export type LeakTypeList = z.infer<typeof leakTypeListResponse>;
export type LeakList = z.infer<typeof leakListResponse>;
export type MlInfo = z.infer<typeof mlInfoResponse>;

import type { WhitelistKind } from '@forpost/contract/whitelist';
import type { Dayjs } from 'dayjs';
import { expiryIso } from '../../../components/form/ExpiryPicker';

/** The fields a single entry and a bulk add share: kind, comment and «valid until». */
export interface EntryFieldValues {
  kind: WhitelistKind;
  comment?: string;
  expires_at?: Dayjs | null;
}

/** Those fields as the API takes them: an empty comment is null, the day becomes its end. */
export const entryFields = (v: EntryFieldValues) => ({
  kind: v.kind,
  comment: v.comment?.trim() || null,
  expires_at: expiryIso(v.expires_at),
});

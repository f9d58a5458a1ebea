import {
  TELEGRAM_ACCOUNT_STATUS_LABELS,
  TELEGRAM_COLLECTOR_STATE_LABELS,
  type TelegramAccountStatus,
  type TelegramCollectorState,
} from '@forpost/contract/telegram';
import { Tag } from 'antd';

const STATUS_COLORS: Record<TelegramAccountStatus, string> = { active: 'green', paused: 'orange', banned: 'red' };

export function AccountStatusTag({ status }: { status: TelegramAccountStatus }) {
  return (
    <Tag color={STATUS_COLORS[status]} style={{ marginInlineEnd: 0 }}>
      {TELEGRAM_ACCOUNT_STATUS_LABELS[status]}
    </Tag>
  );
}

export const statusOptions = (Object.keys(TELEGRAM_ACCOUNT_STATUS_LABELS) as TelegramAccountStatus[]).map((s) => ({
  value: s,
  label: TELEGRAM_ACCOUNT_STATUS_LABELS[s],
}));

/** A write-only secret's state: only whether it is stored. */
export function SecretState({ set, label }: { set: boolean; label?: string }) {
  return (
    <Tag color={set ? 'green' : undefined} style={{ marginInlineEnd: 0 }}>
      {label ? `${label}: ` : ''}
      {set ? 'задано' : 'не задано'}
    </Tag>
  );
}

const COLLECTOR_COLORS: Record<TelegramCollectorState, string | undefined> = {
  pending: undefined,
  ok: 'green',
  not_found: 'red',
  error: 'orange',
};

/** The collector's state of a channel (shared by every company following it). */
export function CollectorStateTag({ state }: { state: TelegramCollectorState }) {
  return (
    <Tag color={COLLECTOR_COLORS[state]} style={{ marginInlineEnd: 0 }}>
      {TELEGRAM_COLLECTOR_STATE_LABELS[state]}
    </Tag>
  );
}

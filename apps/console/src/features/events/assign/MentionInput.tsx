/*
 * Comment text with @mentions: typing «@» offers the users who may see the event (the assignee
 * picker's list); choosing one inserts `@[Имя](user:42)` (contract MENTION_RE), which the API turns
 * into a notification and `MentionText` shows as «@Имя».
 */
import type { ModuleCode } from '@forpost/contract/modules';
import { MENTION_RE, mentionToken } from '@forpost/contract/notifications';
import { Mentions, Typography } from 'antd';
import { type ComponentProps, useState } from 'react';
import { useDebounced } from '../../../lib/useDebounced';
import { useAssignees } from './api';

type MentionsProps = ComponentProps<typeof Mentions>;

export function MentionInput({
  code,
  companyId,
  ...rest
}: { code: ModuleCode; companyId: number | null } & Omit<MentionsProps, 'options' | 'onSearch' | 'prefix'>) {
  const [q, setQ] = useState<string | null>(null);
  const users = useAssignees(code, companyId, useDebounced(q ?? '', 250), q !== null);
  return (
    <Mentions
      {...rest}
      prefix="@"
      onSearch={(text) => setQ(text)}
      loading={users.isFetching}
      notFoundContent="Никого не найдено"
      options={(users.data ?? []).map((u) => ({
        key: String(u.id),
        value: mentionToken(u.name, u.id).slice(1),
        label: `${u.name} · ${u.email}`,
      }))}
    />
  );
}

/** A comment's text with its mentions shown as «@Имя» (plain text otherwise: never HTML). */
export function MentionText({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(MENTION_RE)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(
      <Typography.Text key={at} strong style={{ color: 'var(--ant-color-primary)' }} data-testid="mention">
        @{m[1]}
      </Typography.Text>,
    );
    last = at + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/*
 * Comment text with @mentions: typing «@» offers the users who may see the event — the assignee
 * picker's list (GET …/assignees: staff and the company's users for staff, the company's users for
 * its own people), searched by what follows «@» (name or e-mail, any case, «ё» as «е») both here,
 * at once, and on the server. Enter or a click inserts the highlighted one as `@[Имя](user:42)`
 * (contract MENTION_RE): the id, never the name, is whom the API notifies; `MentionText` shows «@Имя».
 */
import type { AssigneeItem } from '@forpost/contract/assignment';
import type { ModuleCode } from '@forpost/contract/modules';
import { foldSearch, MENTION_RE, mentionToken } from '@forpost/contract/notifications';
import { Flex, Mentions, type MentionsRef, Typography } from 'antd';
import { type ComponentProps, useMemo, useRef, useState } from 'react';
import { useDebounced } from '../../../lib/useDebounced';
import { useAssignees } from './api';

type MentionsProps = ComponentProps<typeof Mentions>;
/** How many users GET …/assignees gives at most (assignment.repo: LIMIT 50). */
const ASSIGNEES_CAP = 50;

/** The text typed after the «@» that ends at `caret` (no spaces in it), or null when none is being typed. */
export function mentionQueryAt(text: string, caret: number): string | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0 || (at > 0 && !/\s/.test(before[at - 1] ?? ''))) return null;
  const typed = before.slice(at + 1);
  return /\s/.test(typed) ? null : typed;
}

/** Does a user match what was typed after «@» (name or e-mail, any case, «ё» as «е»)? */
export const mentionMatches = (typed: string, u: Pick<AssigneeItem, 'name' | 'email'>) =>
  foldSearch(`${u.name}\n${u.email}`).includes(foldSearch(typed));

export function MentionInput({
  code,
  companyId,
  ...rest
}: { code: ModuleCode; companyId: number | null } & Omit<MentionsProps, 'options' | 'onSearch' | 'prefix' | 'filterOption'>) {
  const ref = useRef<MentionsRef>(null);
  const [q, setQ] = useState<string | null>(null);
  // What follows «@» before the caret, read on every change: the Mentions component itself measures it
  // only on key-up, which input without key events (IME, dictation, paste, automation) never fires,
  // and its list then stayed unfiltered — «@Оль» and «@Ир» offered everyone and Enter took the first.
  const [typedNow, setTypedNow] = useState<string | null>(null);
  // Everyone (the API gives up to ASSIGNEES_CAP) once «@» is typed, filtered here as one types; only
  // when there are more than that is the typed text asked of the server too.
  const all = useAssignees(code, companyId, '', q !== null);
  const typed = useDebounced(q ?? '', 250);
  const more = useAssignees(code, companyId, typed, q !== null && typed !== '' && (all.data?.length ?? 0) >= ASSIGNEES_CAP);
  // The option's value is the token (without «@»); what it matches is the user's name and e-mail.
  const byValue = useMemo(
    () => new Map([...(all.data ?? []), ...(more.data ?? [])].map((u) => [mentionToken(u.name, u.id).slice(1), u])),
    [all.data, more.data],
  );
  const options = useMemo(
    () =>
      [...byValue].map(([value, u]) => ({
        key: String(u.id),
        value,
        label: (
          <Flex vertical style={{ lineHeight: 1.3 }} data-testid="mention-option">
            <span>{u.name}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {u.email}
            </Typography.Text>
          </Flex>
        ),
      })),
    [byValue],
  );
  return (
    <Mentions
      {...rest}
      prefix="@"
      ref={ref}
      onSearch={(text) => setQ(text)}
      onChange={(value) => {
        rest.onChange?.(value);
        const el = ref.current?.textarea;
        const at = mentionQueryAt(value, el ? el.selectionStart : value.length);
        setTypedNow(at);
        if (at !== null) setQ(at);
      }}
      filterOption={(typed, option) => {
        const u = option.value ? byValue.get(option.value) : undefined;
        return u !== undefined && mentionMatches(typedNow ?? typed, u);
      }}
      // The spinner only before the first answer: later ones refine a list already filtered here.
      loading={all.isPending && q !== null}
      notFoundContent="Никого не найдено"
      options={options}
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

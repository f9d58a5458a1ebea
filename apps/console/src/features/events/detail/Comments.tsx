/*
 * Comments on an event: plain text (rendered as text, never as HTML), author and time; the author
 * may edit or delete while the API allows it (`can_edit`: 15 minutes, or an administrator).
 */
import { DeleteOutlined, EditOutlined, UserOutlined } from '@ant-design/icons';
import { COMMENT_MAX } from '@forpost/contract/comments';
import type { ModuleCode } from '@forpost/contract/modules';
import { Avatar, Button, Card, Empty, Flex, Popconfirm, Skeleton, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/format';
import { useCommentMutations } from '../api/mutations';
import { useComments } from '../api/queries';
import { MentionInput, MentionText } from '../assign/MentionInput';
import type { CommentItem } from '../model/types';

function CommentView({
  c,
  code,
  eventId,
  companyId,
}: {
  c: CommentItem;
  code: ModuleCode;
  eventId: number;
  companyId: number | null;
}) {
  const { edit, remove } = useCommentMutations(code, eventId);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(c.text);
  const save = () => {
    if (!text.trim()) return;
    edit.mutate({ id: c.id, text: text.trim() }, { onSuccess: () => setEditing(false) });
  };
  return (
    <Flex gap={12} data-testid={`comment-${c.id}`}>
      <Avatar icon={<UserOutlined />} style={{ flex: 'none', background: '#adc6ff' }} />
      <Flex vertical gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Flex gap={8} align="baseline" wrap>
          <Typography.Text strong>{c.author_name ?? 'Удалённый пользователь'}</Typography.Text>
          <Tooltip title={c.edited ? `Изменён ${formatDateTime(c.updated_at)}` : undefined}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatDateTime(c.created_at)}
              {c.edited ? ' (изменён)' : ''}
            </Typography.Text>
          </Tooltip>
          {c.can_edit && !editing && (
            <Space size={0} style={{ marginInlineStart: 'auto' }}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                onClick={() => {
                  setText(c.text);
                  setEditing(true);
                }}
                aria-label="Изменить комментарий"
              />
              <Popconfirm
                title="Удалить комментарий?"
                okText="Удалить"
                cancelText="Отмена"
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutate(c.id)}
              >
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label="Удалить комментарий"
                  loading={remove.isPending}
                />
              </Popconfirm>
            </Space>
          )}
        </Flex>
        {editing ? (
          <Flex vertical gap={6}>
            <MentionInput
              code={code}
              companyId={companyId}
              value={text}
              onChange={setText}
              autoSize={{ minRows: 2, maxRows: 10 }}
              maxLength={COMMENT_MAX}
              aria-label="Текст комментария"
            />
            <Space>
              <Button type="primary" size="small" onClick={save} loading={edit.isPending} disabled={!text.trim()}>
                Сохранить
              </Button>
              <Button size="small" onClick={() => setEditing(false)}>
                Отмена
              </Button>
            </Space>
          </Flex>
        ) : (
          <Typography.Paragraph
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', marginBottom: 0 }}
            data-testid="comment-text"
          >
            <MentionText text={c.text} />
          </Typography.Paragraph>
        )}
      </Flex>
    </Flex>
  );
}

export function Comments({
  code,
  eventId,
  canWrite,
  companyId = null,
}: {
  code: ModuleCode;
  eventId: number;
  canWrite: boolean;
  /** The event's company: whom «@» offers (users who may see the event). */
  companyId?: number | null;
}) {
  const list = useComments(eventId);
  const { add } = useCommentMutations(code, eventId);
  const [text, setText] = useState('');
  const submit = () => {
    const t = text.trim();
    if (!t) return;
    add.mutate(t, { onSuccess: () => setText('') });
  };
  const items = list.data?.items ?? [];
  return (
    <Card title={`Комментарии${list.data ? ` (${list.data.total})` : ''}`} size="small" data-testid="comments">
      <Flex vertical gap={16}>
        {list.isPending ? (
          <Skeleton active avatar paragraph={{ rows: 1 }} />
        ) : list.isError ? (
          <Typography.Text type="danger">
            Не удалось загрузить комментарии.{' '}
            <Button type="link" size="small" onClick={() => void list.refetch()}>
              Повторить
            </Button>
          </Typography.Text>
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Комментариев пока нет" style={{ margin: 0 }} />
        ) : (
          items.map((c) => <CommentView key={c.id} c={c} code={code} eventId={eventId} companyId={companyId} />)
        )}
        {canWrite && (
          <Flex vertical gap={8}>
            <MentionInput
              code={code}
              companyId={companyId}
              value={text}
              onChange={setText}
              placeholder="Написать комментарий… (@ — упомянуть)"
              autoSize={{ minRows: 2, maxRows: 8 }}
              maxLength={COMMENT_MAX}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
              }}
              aria-label="Новый комментарий"
              data-testid="comment-input"
            />
            <Flex justify="space-between" align="center">
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                Ctrl+Enter — отправить
              </Typography.Text>
              <Button
                type="primary"
                onClick={submit}
                loading={add.isPending}
                disabled={!text.trim()}
                data-testid="comment-submit"
              >
                Отправить
              </Button>
            </Flex>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}

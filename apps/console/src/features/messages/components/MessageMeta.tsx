import { EyeOutlined, ShareAltOutlined, UserOutlined } from '@ant-design/icons';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { formatDateTime, formatNumber } from '../../../lib/format';
import type { MessageListItem } from '../api/queries';

type Meta = Pick<MessageListItem, 'id' | 'author' | 'forwarded_from' | 'views' | 'channel' | 'edited_at' | 'deleted_at'>;

/** «изменено» / «удалено»: what the collector saw happen to the post in Telegram after it was read. */
export function MessageFate({ m }: { m: Pick<Meta, 'id' | 'edited_at' | 'deleted_at'> }) {
  return (
    <>
      {m.deleted_at && (
        <Tooltip title={`Удалено в Telegram (замечено ${formatDateTime(m.deleted_at)}); текст сохранён`}>
          <Tag color="red" style={{ marginInlineEnd: 0 }} data-testid={`message-deleted-${m.id}`}>
            удалено
          </Tag>
        </Tooltip>
      )}
      {m.edited_at && (
        <Tooltip title={`Изменено в Telegram ${formatDateTime(m.edited_at)}; показан новый текст`}>
          <Tag color="blue" style={{ marginInlineEnd: 0 }} data-testid={`message-edited-${m.id}`}>
            изменено
          </Tag>
        </Tooltip>
      )}
    </>
  );
}

/** A post's fate, «Переслано из …», author and views in one quiet line (the list's row). */
export function MessageMeta({ m }: { m: Meta }) {
  // The preview gives an unsigned post the channel's own name as its author: not worth repeating.
  const author = m.author && m.author !== m.channel.title ? m.author : null;
  if (!author && !m.forwarded_from && m.views === null && !m.edited_at && !m.deleted_at) return null;
  return (
    <Flex gap={12} wrap align="center" style={{ marginTop: 4, fontSize: 12 }} data-testid={`message-meta-${m.id}`}>
      {(m.edited_at || m.deleted_at) && (
        <Flex gap={4}>
          <MessageFate m={m} />
        </Flex>
      )}
      {m.forwarded_from && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <ShareAltOutlined /> Переслано из {m.forwarded_from}
        </Typography.Text>
      )}
      {author && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <UserOutlined /> {author}
        </Typography.Text>
      )}
      {m.views !== null && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} aria-label={`Просмотров: ${formatNumber(m.views)}`}>
          <EyeOutlined /> {formatNumber(m.views)}
        </Typography.Text>
      )}
    </Flex>
  );
}

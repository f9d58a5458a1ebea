import { EyeOutlined, ShareAltOutlined, UserOutlined } from '@ant-design/icons';
import { Flex, Typography } from 'antd';
import { formatNumber } from '../../../lib/format';
import type { MessageListItem } from '../api/queries';

/** A post's author, «Переслано из …» and views in one quiet line (the list's row). */
export function MessageMeta({ m }: { m: Pick<MessageListItem, 'id' | 'author' | 'forwarded_from' | 'views' | 'channel'> }) {
  // The preview gives an unsigned post the channel's own name as its author: not worth repeating.
  const author = m.author && m.author !== m.channel.title ? m.author : null;
  if (!author && !m.forwarded_from && m.views === null) return null;
  return (
    <Flex gap={12} wrap style={{ marginTop: 4, fontSize: 12 }} data-testid={`message-meta-${m.id}`}>
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

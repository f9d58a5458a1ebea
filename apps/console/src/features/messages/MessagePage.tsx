import { ArrowLeftOutlined, DeleteOutlined, ExportOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { telegramLink } from '@forpost/contract/telegram';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, Card, Col, Descriptions, Flex, Popconfirm, Row, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadError, LoadingCard } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { useDeleteMessageMutation } from './api/mutations';
import { useMessageQuery } from './api/queries';
import { Highlighted } from './components/Highlighted';
import { MessageFate } from './components/MessageMeta';
import { ToEventModal } from './components/ToEventModal';
import { highlightTerms, searchWords } from './highlight';

/** /messages/$id: the whole text with the matched words marked, where it came from, and «Создать событие». */
export function MessagePage({ id, q }: { id: number; q?: string }) {
  const query = useMessageQuery(id);
  const back = (
    <Link to="/messages" style={{ display: 'inline-block', marginBottom: 8 }}>
      <ArrowLeftOutlined /> Сообщения
    </Link>
  );
  if (query.isPending) {
    return (
      <>
        <PageHeading title={`Сообщение №${id}`} back={back} />
        <LoadingCard rows={8} />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        <PageHeading title={`Сообщение №${id}`} back={back} />
        <Card>
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        </Card>
      </>
    );
  }
  return <MessageView message={query.data} q={q} back={back} />;
}

function MessageView({
  message: m,
  q,
  back,
}: {
  message: NonNullable<ReturnType<typeof useMessageQuery>['data']>;
  q?: string;
  back: React.ReactNode;
}) {
  const { message } = feedback;
  const navigate = useNavigate();
  const canEvent = useCan('events.write', m.company.id);
  const canDelete = useCan('messages.delete', m.company.id);
  const remove = useDeleteMessageMutation();
  const [toEvent, setToEvent] = useState(false);
  const segments = useMemo(() => highlightTerms(m.text, [...m.rules, ...searchWords(q)]), [m.text, m.rules, q]);

  return (
    <>
      <PageHeading
        title={`Сообщение №${m.id}`}
        subtitle={`${m.channel.username}${m.channel.title ? ` · ${m.channel.title}` : ''} · ${formatDateTime(m.posted_at)}`}
        back={back}
        extra={
          <>
            <Typography.Link href={m.link} target="_blank" rel="noopener noreferrer">
              <Button icon={<ExportOutlined />}>Открыть в Telegram</Button>
            </Typography.Link>
            {canDelete && (
              <Popconfirm
                title="Удалить сообщение?"
                description="Созданные из него события останутся."
                okText="Удалить"
                okButtonProps={{ danger: true }}
                cancelText="Отмена"
                onConfirm={async () => {
                  await remove.mutateAsync(m.id);
                  message.success('Сообщение удалено');
                  void navigate({ to: '/messages' });
                }}
              >
                <Button danger icon={<DeleteOutlined />}>
                  Удалить
                </Button>
              </Popconfirm>
            )}
            {canEvent && (
              <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => setToEvent(true)} data-testid="to-event">
                Создать событие
              </Button>
            )}
          </>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Card
            title="Текст"
            data-testid="message-text"
            extra={
              (m.edited_at || m.deleted_at) && (
                <Flex gap={4}>
                  <MessageFate m={m} />
                </Flex>
              )
            }
          >
            {m.text.trim() ? (
              <Typography.Paragraph
                style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 15, lineHeight: 1.7, marginBottom: 0 }}
              >
                <Highlighted segments={segments} />
              </Typography.Paragraph>
            ) : (
              <Typography.Text type="secondary">Сообщение без текста</Typography.Text>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={9}>
          <Card title="Сведения">
            <Descriptions
              column={1}
              size="small"
              styles={{ label: { width: 150 } }}
              items={[
                {
                  key: 'channel',
                  label: 'Канал',
                  children: (
                    <Flex vertical>
                      <Typography.Link href={telegramLink(m.channel.username)} target="_blank" rel="noopener noreferrer">
                        {m.channel.username}
                      </Typography.Link>
                      {m.channel.title && <Typography.Text type="secondary">{m.channel.title}</Typography.Text>}
                    </Flex>
                  ),
                },
                { key: 'company', label: 'Компания', children: m.company.name },
                { key: 'author', label: 'Автор', children: m.author ?? <Typography.Text type="secondary">—</Typography.Text> },
                ...(m.forwarded_from
                  ? [
                      {
                        key: 'forwarded',
                        label: 'Переслано из',
                        children: <span data-testid="message-forwarded">{m.forwarded_from}</span>,
                      },
                    ]
                  : []),
                ...(m.views !== null ? [{ key: 'views', label: 'Просмотры', children: formatNumber(m.views) }] : []),
                ...(m.edited_at ? [{ key: 'edited', label: 'Изменено в Telegram', children: formatDateTime(m.edited_at) }] : []),
                ...(m.deleted_at
                  ? [{ key: 'deleted', label: 'Удалено в Telegram', children: `замечено ${formatDateTime(m.deleted_at)}` }]
                  : []),
                { key: 'posted', label: 'Опубликовано', children: formatDateTime(m.posted_at) },
                { key: 'created', label: 'Получено', children: formatDateTime(m.created_at) },
                {
                  key: 'link',
                  label: 'Оригинал',
                  children: (
                    <Typography.Link href={m.link} target="_blank" rel="noopener noreferrer" data-testid="message-original">
                      {m.link.replace(/^https:\/\//, '')}
                    </Typography.Link>
                  ),
                },
                ...(m.url && m.url !== m.link
                  ? [
                      {
                        key: 'url',
                        label: 'Ссылка в сообщении',
                        children: (
                          <Typography.Link href={m.url} target="_blank" rel="noopener noreferrer" ellipsis>
                            {m.url}
                          </Typography.Link>
                        ),
                      },
                    ]
                  : []),
                {
                  key: 'rules',
                  label: 'Совпавшие правила',
                  children: m.rules.length ? (
                    <Flex gap={4} wrap data-testid="message-rules">
                      {m.rules.map((r) => (
                        <Link key={r} to="/messages" search={{ rule: r }}>
                          <Tag color="gold" style={{ marginInlineEnd: 0 }}>
                            {r}
                          </Tag>
                        </Link>
                      ))}
                    </Flex>
                  ) : (
                    <Typography.Text type="secondary">Нет совпадений</Typography.Text>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <ToEventModal
        message={m}
        open={toEvent}
        onClose={() => setToEvent(false)}
        onCreated={(r) => {
          setToEvent(false);
          message.success(`Событие №${r.event_id} создано`);
          const [, section, eventId] = r.route.split('/');
          if (section && eventId) void navigate({ to: '/$section/$id', params: { section, id: eventId } });
        }}
      />
    </>
  );
}

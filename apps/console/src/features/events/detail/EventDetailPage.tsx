/* `/{section}/{id}`: one event — fields, triage, tags, comments, attachments, history and the module's extras. */
import { ArrowLeftOutlined, DeleteOutlined, ExportOutlined, ReloadOutlined } from '@ant-design/icons';
import { getModule } from '@forpost/contract/modules';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, Card, Col, Descriptions, Flex, Popconfirm, Result, Row, Skeleton, Typography } from 'antd';
import { onDownloadClick } from '../../../lib/download';
import { feedback } from '../../../lib/feedback';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';
import { errorMessage, getErrorBody, getErrorStatus } from '../../../lib/http';
import { useCan } from '../../auth/useMe';
import { ErrorPage } from '../../errors/ErrorPage';
import type { EventSection } from '../../shell/sections';
import { usePageTitle } from '../../shell/usePageTitle';
import { type EventPatch, useDeleteEvent, usePatchEvent } from '../api/mutations';
import { eventDetailQuery, useEventRefs } from '../api/queries';
import { EventsBreadcrumb } from '../components/EventsBreadcrumb';
import { StatusTag, WhitelistTag } from '../components/values';
import { extraBlocksOf } from '../extras';
import { DetailKeys } from '../keyboard/DetailKeys';
import { lastListSearch } from '../model/search';
import type { EventDetail } from '../model/types';
import { Attachments } from './Attachments';
import { Comments } from './Comments';
import { FieldsCard } from './FieldsCard';
import { HistoryTimeline } from './HistoryTimeline';
import { RelatedEvents } from './RelatedEvents';
import { TriageCard } from './TriageCard';

function MetaCard({ event }: { event: EventDetail }) {
  return (
    <Card title="Общие сведения" size="small">
      <Descriptions
        column={1}
        size="small"
        styles={{ label: { width: 120 } }}
        items={[
          { key: 'company', label: 'Компания', children: event.company_name },
          { key: 'detected', label: 'Обнаружено', children: event.detected_at ? formatDateTime(event.detected_at) : EMPTY_VALUE },
          { key: 'created', label: 'Создано', children: formatDateTime(event.created_at) },
          { key: 'updated', label: 'Изменено', children: formatDateTime(event.updated_at) },
          { key: 'author', label: 'Автор', children: event.author_name ?? (event.import_id ? 'Импорт' : EMPTY_VALUE) },
          ...(event.import_id ? [{ key: 'import', label: 'Импорт', children: `№${event.import_id}` }] : []),
        ]}
      />
    </Card>
  );
}

function Loaded({ section, event }: { section: EventSection; event: EventDetail }) {
  const m = getModule(section.module);
  const refs = useEventRefs(m);
  const canWrite = useCan('events.write', event.company_id);
  const canDelete = useCan('events.delete', event.company_id);
  const canExport = useCan('events.export', event.company_id);
  const patch = usePatchEvent(m.code, event.id);
  const remove = useDeleteEvent(m.code);
  const navigate = useNavigate();
  const { message } = feedback;

  // A triage change saves at once; the toast confirms it (a refusal shows the API's message instead).
  const onPatch = (p: EventPatch) => patch.mutate(p, { onSuccess: () => message.success('Изменения сохранены') });

  const onDelete = () =>
    remove.mutate(event.id, {
      onSuccess: () => {
        message.success(`Событие №${event.id} удалено`);
        void navigate({ to: '/$section', params: { section: section.section }, search: lastListSearch(section.section) });
      },
    });

  return (
    <Flex vertical gap={16}>
      <EventsBreadcrumb section={section} eventId={event.id} />
      <Flex justify="space-between" align="flex-start" gap={16}>
        <Flex vertical gap={4} style={{ minWidth: 0 }}>
          <Flex gap={8} align="center" wrap>
            <Typography.Title level={3} style={{ margin: 0, wordBreak: 'break-word' }} data-testid="page-title">
              {event.title}
            </Typography.Title>
            <StatusTag statuses={refs.statuses} id={event.status_id} />
            <WhitelistTag kind={event.whitelist_kind} />
          </Flex>
          <Typography.Text type="secondary">
            {section.label} · событие №{event.id} · {event.company_name} · создано {formatDateTime(event.created_at)}
          </Typography.Text>
        </Flex>
        <Flex gap={8} style={{ flex: 'none' }} wrap justify="flex-end">
          <DetailKeys section={section.section} event={event} refs={refs} canWrite={canWrite} />
          <Link to="/$section" params={{ section: section.section }} search={lastListSearch(section.section)}>
            <Button icon={<ArrowLeftOutlined />}>К списку</Button>
          </Link>
          {canExport && (
            <Button
              icon={<ExportOutlined />}
              href={`/api/v1/modules/${section.section}/events/${event.id}/stix`}
              download={`${section.section}-${event.id}.stix.json`}
              onClick={onDownloadClick}
              data-testid="event-stix"
            >
              STIX 2.1
            </Button>
          )}
          {canDelete && (
            <Popconfirm
              title={`Удалить событие №${event.id}?`}
              description="Вместе с комментариями и вложениями. Отменить нельзя."
              okText="Удалить"
              cancelText="Отмена"
              okButtonProps={{ danger: true }}
              onConfirm={onDelete}
            >
              <Button danger icon={<DeleteOutlined />} loading={remove.isPending}>
                Удалить
              </Button>
            </Popconfirm>
          )}
        </Flex>
      </Flex>

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15} xxl={16}>
          <Flex vertical gap={16}>
            <FieldsCard m={m} event={event} canWrite={canWrite} />
            {extraBlocksOf(m).map(({ name, Block }) => (
              <Block key={name} m={m} event={event} canWrite={canWrite} />
            ))}
            <RelatedEvents m={m} eventId={event.id} />
            <Attachments code={m.code} eventId={event.id} items={event.attachments ?? []} canWrite={canWrite} />
            <Comments code={m.code} eventId={event.id} canWrite={canWrite} companyId={event.company_id} />
          </Flex>
        </Col>
        <Col xs={24} xl={9} xxl={8}>
          <Flex vertical gap={16}>
            <TriageCard m={m} event={event} refs={refs} canWrite={canWrite} onPatch={onPatch} />
            <MetaCard event={event} />
            <HistoryTimeline m={m} eventId={event.id} refs={refs} />
          </Flex>
        </Col>
      </Row>
    </Flex>
  );
}

export function EventDetailPage({ section, id }: { section: EventSection; id: number }) {
  const m = getModule(section.module);
  const query = useQuery(eventDetailQuery(m.code, id));
  usePageTitle(`Событие №${id} · ${section.label}`);

  if (query.isError && !query.data) {
    const status = getErrorStatus(query.error);
    if (status === 404 || status === 403) return <ErrorPage status={status} message={getErrorBody(query.error)?.message} />;
    return (
      <Result
        status="error"
        title="Не удалось загрузить событие"
        subTitle={errorMessage(query.error)}
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            Повторить
          </Button>
        }
      />
    );
  }
  if (!query.data) {
    return (
      <Flex vertical gap={16} data-testid="detail-skeleton">
        <EventsBreadcrumb section={section} eventId={id} />
        <Skeleton active title paragraph={{ rows: 1 }} />
        <Row gutter={16}>
          <Col xs={24} xl={15} xxl={16}>
            <Card>
              <Skeleton active paragraph={{ rows: 8 }} />
            </Card>
          </Col>
          <Col xs={24} xl={9} xxl={8}>
            <Card>
              <Skeleton active paragraph={{ rows: 5 }} />
            </Card>
          </Col>
        </Row>
      </Flex>
    );
  }
  return <Loaded section={section} event={query.data} />;
}

/* The running (or finished) import: live progress, counters, error report, the events it brought. */
import { DownloadOutlined, UnorderedListOutlined, UploadOutlined } from '@ant-design/icons';
import { formatNumber, pluralRu } from '@forpost/contract/format';
import {
  IMPORT_MODE_LABELS,
  IMPORT_MSG,
  IMPORT_STATUS_COLORS,
  IMPORT_STATUS_LABELS,
  type ImportItem,
} from '@forpost/contract/imports';
import { Link } from '@tanstack/react-router';
import { Alert, Button, Card, Col, Flex, Progress, Row, Statistic, Tag, Typography } from 'antd';
import { onDownloadClick } from '../../../lib/download';
import { errorReportUrl, type ImportTarget, isActive } from '../api/queries';

export function percentOf(i: ImportItem): number {
  if (i.status === 'done') return 100;
  if (!i.rows_total) return 0;
  return Math.min(99, Math.floor((i.rows_read / i.rows_total) * 100));
}

/** A running import whose worker died (another one takes it over automatically): said in place of the progress. */
export function StalledNote({ small }: { small?: boolean }) {
  return (
    <Typography.Text type="warning" style={small ? { fontSize: 12 } : undefined} data-testid="import-stalled">
      {IMPORT_MSG.stalled}
    </Typography.Text>
  );
}

export function ImportStatusTag({ item }: { item: ImportItem }) {
  return (
    <Tag color={item.stalled ? 'warning' : IMPORT_STATUS_COLORS[item.status]} data-testid="import-status">
      {IMPORT_STATUS_LABELS[item.status]}
    </Tag>
  );
}

export interface ProgressCardProps {
  target: ImportTarget;
  item: ImportItem;
  /** The list of what was imported (events of the section filtered by this import). */
  eventsLink?: { section: string };
  onNew: () => void;
}

export function ProgressCard({ target, item, eventsLink, onNew }: ProgressCardProps) {
  const active = isActive(item);
  const percent = percentOf(item);
  return (
    <Card
      title={
        <Flex gap={8} align="center">
          <span>Импорт «{item.file_name}»</span>
          <ImportStatusTag item={item} />
        </Flex>
      }
      extra={
        <Typography.Text type="secondary">
          {item.company_name ? `${item.company_name} · ` : ''}
          {IMPORT_MODE_LABELS[item.mode]}
        </Typography.Text>
      }
      data-testid="import-progress"
    >
      <Flex vertical gap={16}>
        <div>
          <Progress
            percent={percent}
            status={
              item.status === 'failed' ? 'exception' : item.status === 'done' ? 'success' : item.stalled ? 'normal' : 'active'
            }
            strokeColor={item.stalled ? '#faad14' : undefined}
            aria-label="Ход импорта"
          />
          {item.stalled ? (
            <Alert type="warning" showIcon title={<StalledNote />} />
          ) : (
            <Typography.Text type="secondary">
              {item.status === 'queued'
                ? 'Ожидает свободного обработчика…'
                : item.rows_total === null
                  ? 'Проверка файла целиком…'
                  : `Обработано ${formatNumber(item.rows_read)} из ${formatNumber(item.rows_total)} ${pluralRu(item.rows_total, 'строки', 'строк', 'строк')}`}
            </Typography.Text>
          )}
        </div>
        <Row gutter={[16, 16]}>
          <Col xs={12} md={4}>
            <Statistic title="Прочитано" value={item.rows_read} groupSeparator=" " data-testid="stat-read" />
          </Col>
          <Col xs={12} md={5}>
            <Statistic
              title="Создано"
              value={item.created}
              groupSeparator=" "
              valueStyle={{ color: '#389e0d' }}
              data-testid="stat-created"
            />
          </Col>
          <Col xs={12} md={5}>
            <Statistic
              title="Обновлено"
              value={item.updated}
              groupSeparator=" "
              valueStyle={{ color: '#1677ff' }}
              data-testid="stat-updated"
            />
          </Col>
          <Col xs={12} md={5}>
            <Statistic title="Пропущено" value={item.skipped} groupSeparator=" " data-testid="stat-skipped" />
          </Col>
          <Col xs={12} md={5}>
            <Statistic
              title="С ошибками"
              value={item.failed}
              groupSeparator=" "
              valueStyle={item.failed ? { color: '#cf1322' } : undefined}
              data-testid="stat-failed"
            />
          </Col>
        </Row>
        {item.status === 'failed' && item.message && (
          <Alert type="error" showIcon message="Импорт не выполнен" description={item.message} />
        )}
        {item.status === 'done' && (
          <Alert
            type={item.failed ? 'warning' : 'success'}
            showIcon
            message={item.failed ? 'Импорт завершён, часть строк не загружена' : 'Импорт завершён'}
            description={
              item.failed
                ? 'Строки с ошибками перечислены в отчёте: исправьте их в файле и загрузите его снова — уже загруженные строки не задвоятся.'
                : undefined
            }
          />
        )}
        {!active && (
          <Flex gap={8} wrap>
            {item.errors_count > 0 && (
              <Button
                icon={<DownloadOutlined />}
                href={errorReportUrl(target, item.id)}
                download
                onClick={onDownloadClick}
                data-testid="error-report"
              >
                Отчёт об ошибках ({formatNumber(item.errors_count)})
              </Button>
            )}
            {eventsLink && item.created > 0 && (
              <Link to="/$section" params={{ section: eventsLink.section }} search={{ import_id: String(item.id) }}>
                <Button icon={<UnorderedListOutlined />}>Созданные события</Button>
              </Link>
            )}
            <Button type="primary" icon={<UploadOutlined />} onClick={onNew}>
              Загрузить ещё файл
            </Button>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}

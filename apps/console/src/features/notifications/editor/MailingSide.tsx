import type { Mailing } from '@forpost/contract/mailings';
import { Card, Flex, Typography } from 'antd';
import { HEADER_HEIGHT } from '../../shell/metrics';
import { PreviewCard } from '../components/PreviewCard';
import type { filtersBody } from './values';

/** The editor's side column, kept in view: the preview of matching events and a saved mailing's counts. */
export function MailingSide({ mailing, previewBody }: { mailing?: Mailing; previewBody: ReturnType<typeof filtersBody> }) {
  return (
    <div style={{ position: 'sticky', top: HEADER_HEIGHT + 16 }}>
      <PreviewCard body={previewBody} />
      {mailing && (
        <Card size="small" title="Статистика" style={{ marginTop: 16 }}>
          <Flex vertical gap={4}>
            <span>Отправлено событий: {mailing.stats.events_sent}</span>
            <span>Ждут отправки: {mailing.stats.events_pending}</span>
            <span>Писем отправлено: {mailing.stats.deliveries_sent}</span>
            {mailing.stats.deliveries_failed > 0 && (
              <Typography.Text type="danger">Писем с ошибкой: {mailing.stats.deliveries_failed}</Typography.Text>
            )}
          </Flex>
        </Card>
      )}
    </div>
  );
}

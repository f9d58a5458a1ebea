import { ReloadOutlined, RobotOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Statistic, Tooltip, Typography } from 'antd';
import { feedback } from '../../../lib/feedback';
import { formatNumber } from '../../../lib/format';
import { useCan } from '../../auth/useMe';
import { useRequeueFailedMutation } from '../api/mutations';
import { useMlSummary } from '../api/queries';

/** The classification pipeline at a glance: waiting, in flight, failed (with «retry all»). */
export function MlQueueCard({ companyId }: { companyId?: number }) {
  const { message } = feedback;
  const summary = useMlSummary(companyId);
  const canWrite = useCan('events.write');
  const requeue = useRequeueFailedMutation();
  const s = summary.data;
  return (
    <Card data-testid="ml-queue" style={{ height: '100%' }} styles={{ body: { padding: 16 } }}>
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">
          <RobotOutlined /> Классификация (ML)
        </Typography.Text>
        <Flex gap={24} wrap>
          <Statistic title="В очереди" value={s ? formatNumber(s.queued + s.sent) : '—'} loading={summary.isLoading} />
          <Statistic
            title="Ошибки"
            value={s ? formatNumber(s.failed) : '—'}
            loading={summary.isLoading}
            valueStyle={s?.failed ? { color: '#cf1322' } : undefined}
          />
        </Flex>
        {canWrite && s && s.failed > 0 && (
          <Tooltip title="Отправить все события с ошибкой классификации заново">
            <Button
              size="small"
              icon={<ReloadOutlined />}
              loading={requeue.isPending}
              onClick={() =>
                requeue.mutate(
                  { company_id: companyId },
                  { onSuccess: (r) => message.success(`В очередь отправлено событий: ${formatNumber(r.count)}`) },
                )
              }
            >
              Повторить
            </Button>
          </Tooltip>
        )}
      </Flex>
    </Card>
  );
}

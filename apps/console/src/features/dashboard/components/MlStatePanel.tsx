/*
 * An event's classification: state, result (sentiment, phishing score, suggested priority, reasons),
 * last error and the analyst's «Отправить заново». For the event detail page:
 *   <MlStatePanel module="domains" id={event.id} />
 */
import { ReloadOutlined } from '@ant-design/icons';
import { CLASSIFIER_LABELS, ML_STATE_COLORS } from '@forpost/contract/classifier';
import { CONNOTATION_LABELS, DEFAULT_PRIORITIES, ML_STATE_LABELS } from '@forpost/contract/modules';
import { Alert, App, Button, Card, Descriptions, Flex, Tag, Typography } from 'antd';
import { formatDateTime } from '../../../lib/format';
import { useCan } from '../../auth/useMe';
import { useRequeueMlMutation } from '../api/mutations';
import { useMlInfo } from '../api/queries';

export function MlStatePanel({ module, id, companyId }: { module: string; id: number; companyId?: number }) {
  const { message } = App.useApp();
  const info = useMlInfo(module, id);
  const canWrite = useCan('events.write', companyId);
  const requeue = useRequeueMlMutation(module, id);
  const d = info.data;
  const r = d?.result;
  const priority = r?.priority ? DEFAULT_PRIORITIES.find((p) => p.code === r.priority)?.name : undefined;
  return (
    <Card
      size="small"
      title="Классификация (ML)"
      loading={info.isLoading}
      data-testid="ml-panel"
      extra={
        canWrite && d && d.ml_state !== 'InQueueToML' ? (
          <Button
            size="small"
            icon={<ReloadOutlined />}
            loading={requeue.isPending}
            onClick={() => requeue.mutate(undefined, { onSuccess: () => message.success('Событие отправлено на классификацию') })}
          >
            Отправить заново
          </Button>
        ) : null
      }
    >
      {d && (
        <Flex vertical gap={8}>
          <Descriptions size="small" column={1} colon={false} styles={{ label: { width: 160 } }}>
            <Descriptions.Item label="Состояние">
              <Tag color={ML_STATE_COLORS[d.ml_state]} data-testid="ml-state">
                {ML_STATE_LABELS[d.ml_state]}
              </Tag>
              {d.attempts > 0 && <Typography.Text type="secondary">попыток: {d.attempts}</Typography.Text>}
            </Descriptions.Item>
            {d.classifier && <Descriptions.Item label="Классификатор">{CLASSIFIER_LABELS[d.classifier]}</Descriptions.Item>}
            {r?.connotation && <Descriptions.Item label="Тональность">{CONNOTATION_LABELS[r.connotation]}</Descriptions.Item>}
            {r?.score !== undefined && <Descriptions.Item label="Оценка риска">{Math.round(r.score * 100)}%</Descriptions.Item>}
            {priority && <Descriptions.Item label="Предложенный приоритет">{priority}</Descriptions.Item>}
            {d.updated_at && <Descriptions.Item label="Обновлено">{formatDateTime(d.updated_at)}</Descriptions.Item>}
          </Descriptions>
          {r?.reasons?.length ? (
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {r.reasons.map((x) => (
                <li key={x}>
                  <Typography.Text>{x}</Typography.Text>
                </li>
              ))}
            </ul>
          ) : null}
          {d.ml_state === 'Failed' && d.last_error && (
            <Alert
              type="error"
              showIcon
              message={d.last_error}
              description={
                d.next_attempt_at
                  ? `Повтор автоматически: ${formatDateTime(d.next_attempt_at)}`
                  : 'Автоматических повторов больше не будет'
              }
            />
          )}
        </Flex>
      )}
    </Card>
  );
}

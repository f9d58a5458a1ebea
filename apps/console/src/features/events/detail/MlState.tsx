/*
 * The event's machine-learning state: the state tag, what the classifier said (score, reasons) or
 * why it failed, and «Повторить классификацию» (POST …/ml/requeue) for those who may write.
 */
import { RedoOutlined } from '@ant-design/icons';
import { CLASSIFIER_LABELS, ML_MSG } from '@forpost/contract/classifier';
import type { ModuleCode } from '@forpost/contract/modules';
import { Button, Flex, Tooltip, Typography } from 'antd';
import { feedback } from '../../../lib/feedback';
import { formatDateTime } from '../../../lib/format';
import { useMlRequeue } from '../api/mutations';
import { useMlInfo } from '../api/queries';
import { MlStateTag } from '../components/values';
import type { EventDetail } from '../model/types';

/** States in which the event is already with the classifier. */
const IN_PROGRESS = new Set(['InQueueToML', 'SentToML']);

export function MlState({ code, event, canWrite }: { code: ModuleCode; event: EventDetail; canWrite: boolean }) {
  const { message } = feedback;
  const info = useMlInfo(code, event.id, event.ml_state);
  const requeue = useMlRequeue(code, event.id);
  const data = info.data;
  const result = data?.result;

  return (
    <Flex vertical gap={4} data-testid="ml-state">
      <Flex gap={8} align="center" wrap>
        <MlStateTag state={event.ml_state} />
        {data?.classifier && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {CLASSIFIER_LABELS[data.classifier]}
          </Typography.Text>
        )}
      </Flex>
      {result?.score !== undefined && (
        <Typography.Text style={{ fontSize: 12 }}>Оценка угрозы: {Math.round(result.score * 100)}%</Typography.Text>
      )}
      {result?.reasons?.length ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {result.reasons.join('; ')}
        </Typography.Text>
      ) : null}
      {event.ml_state === 'Failed' && data?.last_error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {data.last_error}
          {data.attempts ? ` (попыток: ${data.attempts})` : ''}
        </Typography.Text>
      )}
      {data?.next_attempt_at && event.ml_state === 'Failed' && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Следующая попытка: {formatDateTime(data.next_attempt_at)}
        </Typography.Text>
      )}
      {/* Offered in every state but InQueueToML/SentToML (shown disabled then). `classifier` is null
          only when no attempt is recorded (an event created or imported with its ML state, or older
          than the pipeline): the API re-queues those too, so that is no reason to hide the button. */}
      {canWrite && (
        <Tooltip title={IN_PROGRESS.has(event.ml_state) ? 'Событие уже в очереди на классификацию' : undefined}>
          <Button
            size="small"
            icon={<RedoOutlined />}
            style={{ alignSelf: 'flex-start' }}
            disabled={IN_PROGRESS.has(event.ml_state)}
            loading={requeue.isPending}
            onClick={() => requeue.mutate(undefined, { onSuccess: () => message.success(ML_MSG.requeued) })}
            data-testid="ml-requeue"
          >
            Повторить классификацию
          </Button>
        </Tooltip>
      )}
    </Flex>
  );
}

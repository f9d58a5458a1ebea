/*
 * The event's machine-learning state: the state tag, what the classifier said (score, reasons) or
 * why it failed, and «Повторить классификацию» (POST …/ml/requeue) for those who may write.
 */
import { RedoOutlined } from '@ant-design/icons';
import { CLASSIFIER_LABELS, ML_MSG } from '@forpost/contract/classifier';
import { MODULES, type ModuleCode } from '@forpost/contract/modules';
import { CONNOTATION_LABELS } from '@forpost/contract/modules/common';
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
      <ScoreLine code={code} event={event} result={result} external={data?.classifier === 'external'} />
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

type Result = NonNullable<NonNullable<ReturnType<typeof useMlInfo>['data']>['result']>;

/**
 * What the classifier's figure is, named (issue #30.11: «Оценка угрозы 100 %» beside the source's
 * «Нейтральная» read as one contradicting the other): the tone and its strength for a sentiment
 * module, the phishing risk for a domain, and whose value each field of the card is.
 */
function ScoreLine({
  code,
  event,
  result,
  external,
}: {
  code: ModuleCode;
  event: EventDetail;
  result?: Result | null;
  external: boolean;
}) {
  if (!result) return null;
  const kind = MODULES[code].classify?.kind;
  const pct = result.score === undefined ? null : `${Math.round(result.score * 100)}%`;
  const who = external ? 'внешнего сервиса' : 'классификатора Форпоста';
  if (kind === 'sentiment' && result.connotation) {
    const stored = (event as unknown as Record<string, unknown>).connotation as
      | keyof typeof CONNOTATION_LABELS
      | null
      | undefined;
    const differs = stored && stored !== 'Undefined' && stored !== result.connotation;
    return (
      <>
        <Typography.Text style={{ fontSize: 12 }} data-testid="ml-score">
          Тональность по оценке {who}: {CONNOTATION_LABELS[result.connotation]}
          {pct && ` (выраженность ${pct})`}
        </Typography.Text>
        {differs && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="ml-source-note">
            В поле «Тональность» — значение источника ({CONNOTATION_LABELS[stored]}): классификатор его не заменяет
          </Typography.Text>
        )}
      </>
    );
  }
  if (!pct) return null;
  return (
    <Typography.Text style={{ fontSize: 12 }} data-testid="ml-score">
      {kind === 'phishing' ? `Риск фишинга по оценке ${who}: ${pct}` : `Оценка ${who}: ${pct}`}
    </Typography.Text>
  );
}

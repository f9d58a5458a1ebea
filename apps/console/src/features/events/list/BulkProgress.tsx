/*
 * A bulk operation «по фильтру» running in the background: its progress, polled until it ends; then
 * a message and a fresh list.
 */
import { BULK_MSG } from '@forpost/contract/events-bulk';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Flex, Progress, Typography } from 'antd';
import { useEffect } from 'react';
import { feedback } from '../../../lib/feedback';
import { formatNumber } from '../../../lib/format';
import { useBulkJob } from '../api/mutations';
import { eventKeys } from '../api/queries';
import { offerUndo } from '../undo';
import { type BulkRun, eventsCount } from './BulkBar';

export function BulkProgress({ run, onEnd }: { run: BulkRun; onEnd: () => void }) {
  const { code } = run;
  const { message } = feedback;
  const qc = useQueryClient();
  const job = useBulkJob(code, run.id).data;
  const status = job?.status;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the job ends
  useEffect(() => {
    if (!job || (status !== 'done' && status !== 'failed')) return;
    if (status === 'done') offerUndo(qc, code, job.undo_token, `${run.what}: ${eventsCount(job.processed)}`);
    else message.error(job.message ?? BULK_MSG.failed);
    void qc.invalidateQueries({ queryKey: eventKeys.lists(code) });
    onEnd();
  }, [status]);

  const processed = job?.processed ?? 0;
  const total = job?.total ?? 0;
  return (
    <Alert
      type="info"
      data-testid="bulk-progress"
      title={
        <Flex vertical gap={4}>
          <Typography.Text>
            {run.what}: {formatNumber(processed)} из {formatNumber(total)}
          </Typography.Text>
          <Progress percent={total ? Math.floor((processed / total) * 100) : 0} size="small" status="active" />
          {job?.stalled && <Typography.Text type="secondary">{BULK_MSG.stalled}</Typography.Text>}
        </Flex>
      }
    />
  );
}

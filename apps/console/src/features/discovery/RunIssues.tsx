import {
  DISCOVERY_SOURCE_LABELS,
  type DiscoveryRun,
  RUN_ISSUE_LABELS,
  RUN_OUTCOME_LABELS,
  RUN_STATUS_LABELS,
  type RunIssue,
  type RunOutcome,
  type RunStatus,
  runIncomplete,
  runOutcome,
} from '@forpost/contract/discovery';
import { Descriptions, Tag, Typography } from 'antd';
import { formatNumber } from '../../lib/format';

const STATUS_COLORS: Record<RunStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};
const OUTCOME_COLORS: Record<RunOutcome, string> = { ok: 'success', partial: 'orange', broken: 'error' };

/** The run's status tag: a finished run with errors is orange «Завершён с ошибками», red when DNS never answered. */
export function runStatusTag(run: DiscoveryRun, stopping: boolean) {
  const outcome = runOutcome(run);
  if (stopping) return { color: 'warning', label: 'Останавливается' };
  if (run.status === 'done' && outcome !== 'ok') return { color: OUTCOME_COLORS[outcome], label: RUN_OUTCOME_LABELS[outcome] };
  return { color: STATUS_COLORS[run.status], label: RUN_STATUS_LABELS[run.status] };
}

/** Whether the run has anything to explain (errors by reason, RDAP failures, sources missing). */
export const hasIssues = (r: DiscoveryRun) => r.issues.dns.length > 0 || r.issues.rdap.length > 0 || r.issues.missing.length > 0;

function IssueList({ items, testId }: { items: RunIssue[]; testId: string }) {
  return (
    <ul style={{ margin: 0, paddingInlineStart: 18 }} data-testid={testId}>
      {items.map((i) => (
        <li key={i.reason} data-testid="run-issue">
          <Typography.Text strong>{RUN_ISSUE_LABELS[i.reason]}</Typography.Text> — {formatNumber(i.count)}
          {i.examples.length > 0 && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              например: {i.examples.join(', ')}
            </Typography.Text>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The expanded row of a run: why its result is incomplete. */
export function RunIssuesPanel({ run }: { run: DiscoveryRun }) {
  const rdapFailed = run.issues.rdap.reduce((a, i) => a + i.count, 0);
  const items = [
    ...(runIncomplete(run) && run.registered === 0
      ? [
          {
            key: 'meaning',
            label: 'Итог',
            children: (
              <Typography.Text type="warning" data-testid="run-incomplete">
                Проверка неполная: «0 зарегистрировано» не значит, что двойников нет
              </Typography.Text>
            ),
          },
        ]
      : []),
    ...(run.issues.dns.length
      ? [
          {
            key: 'dns',
            label: `Ошибки DNS (${formatNumber(run.errors)} из ${formatNumber(run.candidates)})`,
            children: <IssueList items={run.issues.dns} testId="run-issues-dns" />,
          },
        ]
      : []),
    ...(run.issues.rdap.length
      ? [
          {
            key: 'rdap',
            label: `Без данных RDAP (${formatNumber(rdapFailed)} из ${formatNumber(run.issues.rdap_asked)})`,
            children: <IssueList items={run.issues.rdap} testId="run-issues-rdap" />,
          },
        ]
      : []),
    ...(run.issues.missing.length
      ? [
          {
            key: 'missing',
            label: 'Не были настроены',
            children: run.issues.missing.map((s) => <Tag key={s}>{DISCOVERY_SOURCE_LABELS[s]}</Tag>),
          },
        ]
      : []),
  ];
  return <Descriptions size="small" column={1} items={items} data-testid="run-issues" />;
}

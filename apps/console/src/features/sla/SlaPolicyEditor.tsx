/*
 * The SLA policies editor (settings: the installation default; a company's page: its override): per
 * priority the time to first triage and to resolution, each a number and a unit (минуты, часы, дни).
 * Checked with the contract's schema before saving (Russian messages under the cells); the API's field
 * errors land in the same cells.
 */
import {
  SLA_PRIORITIES,
  SLA_PRIORITY_LABELS,
  type SlaPoliciesResponse,
  type SlaPolicyItem,
  type SlaPriority,
  slaCompanyRequest,
  slaDefaultRequest,
} from '@forpost/contract/sla';
import { Alert, Button, Flex, InputNumber, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiFieldErrors } from '../../components/form/forms';
import { LoadError, LoadingCard } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { errorMessage } from '../../lib/http';
import { type SlaScope, useSaveSlaPolicies, useSlaPolicies } from './api';

const UNITS = [
  { value: 1, label: 'мин' },
  { value: 60, label: 'ч' },
  { value: 1440, label: 'дн' },
] as const;
type Unit = (typeof UNITS)[number]['value'];
interface Amount {
  n: number | null;
  unit: Unit;
}
type Kind = 'triage_minutes' | 'resolve_minutes';
type Draft = Record<SlaPriority, Record<Kind, Amount>>;

/** Minutes in the largest unit that divides them. */
const amountOf = (minutes: number): Amount => {
  const unit = ([1440, 60, 1] as const).find((u) => minutes % u === 0) ?? 1;
  return { n: minutes / unit, unit };
};
const draftOf = (items: readonly SlaPolicyItem[]): Draft =>
  Object.fromEntries(
    SLA_PRIORITIES.map((p) => {
      const i = items.find((x) => x.priority === p);
      return [p, { triage_minutes: amountOf(i?.triage_minutes ?? 60), resolve_minutes: amountOf(i?.resolve_minutes ?? 1440) }];
    }),
  ) as Draft;
/** The body's items; a number left empty stays NaN, so the schema reports it. */
const itemsOf = (d: Draft): SlaPolicyItem[] =>
  SLA_PRIORITIES.map((p) => ({
    priority: p,
    triage_minutes: d[p].triage_minutes.n === null ? Number.NaN : d[p].triage_minutes.n * d[p].triage_minutes.unit,
    resolve_minutes: d[p].resolve_minutes.n === null ? Number.NaN : d[p].resolve_minutes.n * d[p].resolve_minutes.unit,
  }));

export function SlaPolicyEditor({ scope, canEdit }: { scope: SlaScope; canEdit: boolean }) {
  const query = useSlaPolicies(scope);
  if (query.isError && !query.data) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <LoadingCard rows={4} />;
  return <Editor key={JSON.stringify(query.data)} scope={scope} data={query.data} canEdit={canEdit} />;
}

function Editor({ scope, data, canEdit }: { scope: SlaScope; data: SlaPoliciesResponse; canEdit: boolean }) {
  const { message } = feedback;
  const save = useSaveSlaPolicies(scope);
  const [draft, setDraft] = useState<Draft>(() => draftOf(data.items));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => setDraft(draftOf(data.items)), [data]);

  const set = (p: SlaPriority, k: Kind, a: Partial<Amount>) => {
    setDraft((d) => ({ ...d, [p]: { ...d[p], [k]: { ...d[p][k], ...a } } }));
    setErrors((e) => {
      const { [`items.${SLA_PRIORITIES.indexOf(p)}.${k}`]: _, ...rest } = e;
      return rest;
    });
  };

  const submit = (items: SlaPolicyItem[]) => {
    setFormError(null);
    const schema = scope === null ? slaDefaultRequest : slaCompanyRequest;
    const parsed = schema.safeParse({ items });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    save.mutate(parsed.data.items, {
      onSuccess: (r) => {
        setErrors({});
        message.success(
          items.length === 0
            ? 'Компания снова работает по срокам по умолчанию'
            : `Сроки SLA сохранены${r.recomputed ? ` · пересчитано событий: ${r.recomputed}` : ''}`,
        );
      },
      onError: (e) => {
        const fields = apiFieldErrors(e);
        setErrors(fields);
        if (!Object.keys(fields).length) setFormError(errorMessage(e));
      },
    });
  };

  const cell = (p: SlaPriority, k: Kind) => {
    const a = draft[p][k];
    const err = errors[`items.${SLA_PRIORITIES.indexOf(p)}.${k}`];
    return (
      <Flex vertical gap={2}>
        <Space.Compact>
          <InputNumber<number>
            min={1}
            precision={0}
            value={a.n}
            disabled={!canEdit}
            status={err ? 'error' : undefined}
            onChange={(v) => set(p, k, { n: v })}
            style={{ width: 90 }}
            aria-label={`${SLA_PRIORITY_LABELS[p]}: ${k === 'triage_minutes' ? 'до разбора' : 'до решения'}`}
            data-testid={`sla-${p}-${k}`}
          />
          <Select<Unit>
            value={a.unit}
            disabled={!canEdit}
            options={UNITS.map((u) => ({ value: u.value, label: u.label }))}
            onChange={(u) => set(p, k, { unit: u })}
            style={{ width: 76 }}
            aria-label="Единица"
          />
        </Space.Compact>
        {err && (
          <Typography.Text type="danger" style={{ fontSize: 12 }}>
            {err}
          </Typography.Text>
        )}
      </Flex>
    );
  };

  const itemsError = errors.items;
  return (
    <Flex vertical gap={12} data-testid="sla-editor">
      {scope !== null && (
        <Typography.Text type="secondary">
          {data.overridden ? (
            <>
              <Tag color="blue">Свои сроки</Tag>Сроки этой компании заменяют сроки по умолчанию
            </>
          ) : (
            <>
              <Tag>По умолчанию</Tag>У компании нет своих сроков — действуют сроки по умолчанию из настроек
            </>
          )}
        </Typography.Text>
      )}
      {formError && <Alert type="error" showIcon title={formError} />}
      {itemsError && <Alert type="error" showIcon title={itemsError} />}
      <Table
        size="small"
        rowKey="p"
        pagination={false}
        style={{ maxWidth: 640 }}
        dataSource={SLA_PRIORITIES.map((p) => ({ p }))}
        columns={[
          { key: 'p', title: 'Приоритет', render: (_: unknown, r: { p: SlaPriority }) => SLA_PRIORITY_LABELS[r.p] },
          { key: 't', title: 'До первого разбора', render: (_: unknown, r: { p: SlaPriority }) => cell(r.p, 'triage_minutes') },
          { key: 'r', title: 'До решения', render: (_: unknown, r: { p: SlaPriority }) => cell(r.p, 'resolve_minutes') },
        ]}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Сроки считаются в календарном времени от создания события. Разбор — первая смена статуса «Новое»; решение — статус
        «Решено» или «Ложное срабатывание». Событие без приоритета — по сроку «Средний».
      </Typography.Text>
      {canEdit && (
        <Space>
          <Button type="primary" loading={save.isPending} onClick={() => submit(itemsOf(draft))} data-testid="sla-save">
            Сохранить
          </Button>
          {scope !== null && data.overridden && (
            <Popconfirm title="Вернуть сроки по умолчанию?" okText="Вернуть" cancelText="Отмена" onConfirm={() => submit([])}>
              <Button>Сроки по умолчанию</Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </Flex>
  );
}

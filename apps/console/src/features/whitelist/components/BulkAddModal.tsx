import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { formatNumber, pluralRu } from '@forpost/contract/format';
import {
  detectWhitelistType,
  WHITELIST_BULK_MAX_LINES,
  WHITELIST_MSG,
  WHITELIST_TYPE_LABELS,
  WHITELIST_TYPES,
  type WhitelistType,
} from '@forpost/contract/whitelist';
import { Alert, Button, Flex, Form, Input, Modal, Radio, Segmented, Select, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { ExpiryPicker } from '../../../components/form/ExpiryPicker';
import { useFormModal } from '../../../components/form/FormModal';
import { feedback } from '../../../lib/feedback';
import { type BulkResult, useBulkWhitelistMutation } from '../api/mutations';
import type { WhitelistScope } from '../api/queries';
import { kindOptions } from '../labels';
import { type EntryFieldValues, entryFields } from './entryFields';

interface Values extends EntryFieldValues {
  text: string;
  type: WhitelistType | 'auto';
}

type Line = BulkResult['items'][number];

/** «Массовое добавление»: one entry per line → a result per line (added, or the Russian reason). */
export function BulkAddModal({
  scope,
  scopeLabel,
  open,
  onClose,
}: {
  scope: WhitelistScope;
  scopeLabel: string;
  open: boolean;
  onClose: () => void;
}) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const bulk = useBulkWhitelistMutation(scope);
  const [result, setResult] = useState<BulkResult | null>(null);
  const [show, setShow] = useState<'all' | 'failed'>('all');
  const text = Form.useWatch('text', form) ?? '';
  const type = Form.useWatch('type', form) ?? 'auto';

  useEffect(() => {
    if (!open) return;
    setResult(null);
    setShow('all');
    reset({});
  }, [open, reset]);

  const lines = useMemo(() => text.split(/\r?\n/).filter((l) => l.trim() !== ''), [text]);
  /** What the types of the pasted lines will be (a preview of the server's own detection). */
  const detected = useMemo(() => {
    if (type !== 'auto') return null;
    const counts = new Map<WhitelistType, number>();
    for (const l of lines.slice(0, WHITELIST_BULK_MAX_LINES)) {
      const t = detectWhitelistType(l);
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    return [...counts.entries()].map(([t, n]) => `${WHITELIST_TYPE_LABELS[t]}: ${n}`).join(', ');
  }, [lines, type]);

  const onSubmit = () =>
    submit(async (v) => {
      const r = await bulk.mutateAsync({
        text: v.text,
        type: v.type === 'auto' ? undefined : v.type,
        ...entryFields(v),
      });
      setResult(r);
      setShow(r.failed > 0 ? 'failed' : 'all');
      if (r.created > 0)
        message.success(`Добавлено: ${formatNumber(r.created)} ${pluralRu(r.created, 'запись', 'записи', 'записей')}`);
    }, []);

  const rows = result ? (show === 'failed' ? result.items.filter((l) => !l.ok) : result.items) : [];

  return (
    <Modal
      open={open}
      title={`Массовое добавление · ${scopeLabel}`}
      onCancel={onClose}
      width={result ? 860 : 680}
      destroyOnHidden
      forceRender
      footer={
        result ? (
          <Flex justify="end" gap={8}>
            <Button onClick={() => setResult(null)}>Добавить ещё</Button>
            <Button type="primary" onClick={onClose}>
              Готово
            </Button>
          </Flex>
        ) : (
          <Flex justify="end" gap={8}>
            <Button onClick={onClose}>Отмена</Button>
            <Button
              type="primary"
              loading={bulk.isPending}
              onClick={() => void onSubmit()}
              disabled={lines.length === 0}
              data-testid="bulk-submit"
            >
              Добавить{' '}
              {lines.length > 0 ? `${formatNumber(lines.length)} ${pluralRu(lines.length, 'строку', 'строки', 'строк')}` : ''}
            </Button>
          </Flex>
        )
      }
    >
      {result ? (
        <div data-testid="bulk-result">
          <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 12 }}>
            <Alert
              type={result.failed === 0 ? 'success' : result.created === 0 ? 'error' : 'warning'}
              showIcon
              title={`Добавлено: ${formatNumber(result.created)} · С ошибками: ${formatNumber(result.failed)}`}
              style={{ flex: 1 }}
            />
            <Segmented
              value={show}
              onChange={(v) => setShow(v as 'all' | 'failed')}
              options={[
                { value: 'all', label: `Все (${result.items.length})` },
                { value: 'failed', label: `Ошибки (${result.failed})`, disabled: result.failed === 0 },
              ]}
            />
          </Flex>
          <Table<Line>
            rowKey="line"
            size="small"
            dataSource={rows}
            pagination={rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
            scroll={{ y: 420 }}
            columns={[
              { title: 'Строка', dataIndex: 'line', width: 80 },
              {
                title: 'Значение',
                dataIndex: 'value',
                render: (v: string) => (
                  <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 300 }}>
                    {v || <Typography.Text type="secondary">пусто</Typography.Text>}
                  </Typography.Text>
                ),
              },
              { title: 'Тип', dataIndex: 'type', width: 150, render: (t: WhitelistType) => WHITELIST_TYPE_LABELS[t] },
              {
                title: 'Результат',
                key: 'result',
                width: 300,
                render: (_, l) =>
                  l.ok ? (
                    <Typography.Text type="success">
                      <CheckCircleFilled /> Добавлено
                    </Typography.Text>
                  ) : (
                    <Typography.Text type="danger">
                      <CloseCircleFilled /> {l.error}
                    </Typography.Text>
                  ),
              },
            ]}
          />
        </div>
      ) : (
        <Form<Values>
          form={form}
          layout="vertical"
          requiredMark="optional"
          initialValues={{ type: 'auto', kind: 'whitelistClient', text: '' }}
        >
          {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
          <Form.Item
            name="text"
            label="Записи — по одной в строке"
            rules={[
              { required: true, whitespace: true, message: WHITELIST_MSG.emptyText },
              {
                validator: async () => {
                  if (lines.length > WHITELIST_BULK_MAX_LINES)
                    throw new Error(WHITELIST_MSG.tooManyLines(WHITELIST_BULK_MAX_LINES));
                },
              },
            ]}
            extra={
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {lines.length > 0
                  ? `${formatNumber(lines.length)} ${pluralRu(lines.length, 'строка', 'строки', 'строк')}${detected ? ` · ${detected}` : ''}`
                  : `Домены, URL, email, IP или подсети, ИНН, наименования. Не более ${formatNumber(WHITELIST_BULK_MAX_LINES)} строк.`}
              </Typography.Text>
            }
          >
            <Input.TextArea
              rows={10}
              autoFocus
              placeholder={'example.ru\nhttps://example.ru/login\nsecurity@example.ru\n192.0.2.0/24\n7707083893'}
              style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
              data-testid="bulk-text"
            />
          </Form.Item>
          <Flex gap={16} wrap>
            <Form.Item name="type" label="Тип записей" style={{ flex: '1 1 220px' }}>
              <Select
                options={[
                  { value: 'auto', label: 'Определять по каждой строке' },
                  ...WHITELIST_TYPES.map((t) => ({ value: t, label: WHITELIST_TYPE_LABELS[t] })),
                ]}
              />
            </Form.Item>
            <Form.Item name="expires_at" label="Действуют до" style={{ flex: '0 0 200px' }}>
              <ExpiryPicker style={{ width: '100%' }} />
            </Form.Item>
          </Flex>
          <Form.Item name="kind" label="Вид">
            <Radio.Group optionType="button" options={kindOptions} />
          </Form.Item>
          <Form.Item name="comment" label="Комментарий ко всем записям">
            <Input maxLength={1000} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

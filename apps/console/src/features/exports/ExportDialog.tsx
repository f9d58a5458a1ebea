/*
 * «Экспорт» from an event list: which fields (Russian labels, the list's columns checked), CSV or
 * XLSX, an optional name. The file gets exactly what the list's current filters select.
 */
import { EXPORT_FORMAT_LABELS, EXPORT_FORMATS, type ExportFormat } from '@forpost/contract/exports';
import { formatNumber } from '@forpost/contract/format';
import type { ModuleDescriptor } from '@forpost/contract/modules';
import { useNavigate } from '@tanstack/react-router';
import { Alert, Button, Checkbox, Flex, Form, Input, Modal, Radio, Skeleton, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { feedback } from '../../lib/feedback';
import type { SearchParams } from '../../lib/http';
import { useCreateExport } from './api/mutations';
import { useExportFieldsQuery } from './api/queries';

export interface ExportDialogProps {
  open: boolean;
  onClose: () => void;
  module: ModuleDescriptor;
  /** The list's query (filters, sort, company); paging is ignored. */
  filters: SearchParams;
  /** Rows the filters select, when the list knows it. */
  total?: number;
  totalCapped?: boolean;
  /** The format chosen when the dialog opens (the list's «Выгрузить в STIX 2.1» opens it on STIX). */
  initialFormat?: ExportFormat;
}

const toFilters = (p: SearchParams): Record<string, string | number | boolean | (string | number)[]> => {
  const out: Record<string, string | number | boolean | (string | number)[]> = {};
  for (const [k, v] of Object.entries(p)) {
    if (v === undefined || v === null || k === 'page' || k === 'page_size' || k === 'status_counts') continue;
    if (Array.isArray(v)) {
      if (v.length) out[k] = v.map((x) => (typeof x === 'boolean' ? String(x) : x));
    } else out[k] = v as string | number | boolean;
  }
  return out;
};

export function ExportDialog({ open, onClose, module: m, filters, total, totalCapped, initialFormat }: ExportDialogProps) {
  const { message } = feedback;
  const navigate = useNavigate();
  const fieldsQ = useExportFieldsQuery(m.code, open);
  const fields = useMemo(() => fieldsQ.data?.items[0]?.fields ?? [], [fieldsQ.data]);
  const defaults = useMemo(() => fields.filter((f) => f.default).map((f) => f.key), [fields]);
  const [selected, setSelected] = useState<string[]>([]);
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const [name, setName] = useState('');
  const create = useCreateExport();

  useEffect(() => {
    if (open) setSelected(defaults);
  }, [open, defaults]);
  useEffect(() => {
    if (open) setFormat(initialFormat ?? 'xlsx');
  }, [open, initialFormat]);

  const submit = () =>
    create.mutate(
      {
        module: m.code,
        format,
        fields: fields.map((f) => f.key).filter((k) => selected.includes(k)),
        filters: toFilters(filters),
        ...(name.trim() ? { name: name.trim() } : {}),
      },
      {
        onSuccess: () => {
          message.success({
            content: (
              <span>
                Экспорт поставлен в очередь. Файл появится в разделе{' '}
                {/* The toast lives outside the router's tree: navigate through a captured callback, not <Link>. */}
                <Typography.Link onClick={() => void navigate({ to: '/exports' })}>«Мои экспорты»</Typography.Link>
              </span>
            ),
            duration: 6,
          });
          onClose();
        },
      },
    );

  return (
    <Modal
      open={open}
      title={`Экспорт: ${m.name}`}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      data-testid="export-dialog"
      footer={
        <Flex justify="space-between" align="center">
          <Typography.Text type="secondary">Выбрано полей: {selected.length}</Typography.Text>
          <Flex gap={8}>
            <Button onClick={onClose}>Отмена</Button>
            <Button
              type="primary"
              disabled={!selected.length}
              loading={create.isPending}
              onClick={submit}
              data-testid="export-submit"
            >
              Экспортировать
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        <Alert
          type="info"
          showIcon
          message={
            total === undefined
              ? 'В файл попадут все события, которые выбирают текущие фильтры списка'
              : `В файл попадут все события по текущим фильтрам: ${totalCapped ? 'более ' : ''}${formatNumber(total)}`
          }
          description="Файл формируется в фоне; готовые файлы — в разделе «Мои экспорты»."
        />
        <Form layout="vertical">
          <Form.Item label="Формат">
            <Radio.Group value={format} onChange={(e) => setFormat(e.target.value)} data-testid="export-format">
              {EXPORT_FORMATS.map((f) => (
                <Radio.Button key={f} value={f}>
                  {EXPORT_FORMAT_LABELS[f]}
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
          <Form.Item
            label={
              <Flex gap={12} align="center">
                <span>Поля</span>
                <Typography.Link onClick={() => setSelected(fields.map((f) => f.key))}>Все</Typography.Link>
                <Typography.Link onClick={() => setSelected(defaults)}>Как в списке</Typography.Link>
                <Typography.Link onClick={() => setSelected([])}>Снять все</Typography.Link>
              </Flex>
            }
            validateStatus={selected.length ? undefined : 'error'}
            help={selected.length ? undefined : 'Выберите хотя бы одно поле'}
          >
            {fieldsQ.isLoading ? (
              <Skeleton active paragraph={{ rows: 4 }} />
            ) : (
              <Checkbox.Group
                value={selected}
                onChange={(v) => setSelected(v as string[])}
                style={{ width: '100%' }}
                data-testid="export-fields"
              >
                <div
                  style={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: '6px 12px', width: '100%' }}
                >
                  {fields.map((f) => (
                    <Checkbox key={f.key} value={f.key}>
                      {f.label}
                    </Checkbox>
                  ))}
                </div>
              </Checkbox.Group>
            )}
          </Form.Item>
          <Form.Item label="Название файла" extra="Необязательно; по умолчанию — раздел, дата и время">
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} placeholder={`${m.name} — …`} />
          </Form.Item>
        </Form>
      </Flex>
    </Modal>
  );
}

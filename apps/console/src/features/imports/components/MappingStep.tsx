/*
 * Step 2: which file column goes into which field (detected automatically, changeable), the whole
 * file checked with the current mapping (the dry run: what the import would reject, by reason), the
 * first rows checked cell by cell, what to do with existing events, start.
 */
import { CloseCircleFilled, PlayCircleOutlined } from '@ant-design/icons';
import { formatFileSize, pluralRu } from '@forpost/contract/format';
import {
  IMPORT_DELIMITER_LABELS,
  IMPORT_ENCODING_LABELS,
  IMPORT_MODE_LABELS,
  IMPORT_MODES,
  type ImportItem,
  type ImportMode,
  type ImportPreview,
  type ImportPreviewRow,
} from '@forpost/contract/imports';
import { Alert, Button, Card, Flex, Form, Radio, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/http';
import { usePreviewImport, useStartImport } from '../api/mutations';
import { type ImportTarget, useImportCheck } from '../api/queries';
import { CheckSummary } from './CheckSummary';

export interface MappingStepProps {
  target: ImportTarget;
  item: ImportItem;
  preview: ImportPreview;
  companies?: { value: number; label: string }[];
  companyId: number | undefined;
  onCompany: (id: number | undefined) => void;
  onStarted: (item: ImportItem) => void;
  onCancel: () => void;
}

const NONE = '';

/**
 * The verdict on the sample rows shown, worded so it speaks of them only: the whole file's verdict is the
 * dry run's («Проверка всего файла»), and a clean sample must not read as «no errors» for the file.
 */
export function sampleSummary(shown: number, bad: number): string {
  const first = shown === 1 ? 'Первая строка' : `Первые ${shown} ${pluralRu(shown, 'строка', 'строки', 'строк')}`;
  return bad ? `${first}: с ошибками ${bad}` : `${first}: ошибок нет`;
}

export function MappingStep({
  target,
  item,
  preview: initial,
  companies,
  companyId,
  onCompany,
  onStarted,
  onCancel,
}: MappingStepProps) {
  const [mapping, setMapping] = useState<(string | null)[]>(initial.mapping);
  const [preview, setPreview] = useState<ImportPreview>(initial);
  const [mode, setMode] = useState<ImportMode>('update');
  const [startError, setStartError] = useState<string>();
  const previewer = usePreviewImport(target);
  const starter = useStartImport(target);
  const first = useRef(true);

  // Re-check the sample whenever the mapping changes (debounced).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the mutation object is stable enough; re-run on mapping only
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => previewer.mutate({ id: item.id, mapping }, { onSuccess: setPreview }), 250);
    return () => clearTimeout(t);
  }, [mapping, item.id]);

  const fieldLabel = useMemo(() => new Map(preview.fields.map((f) => [f.key, f.label])), [preview.fields]);
  const options = useMemo(() => {
    const opt = (f: (typeof preview.fields)[number]) => ({
      value: f.key,
      label: f.required ? `${f.label} *` : f.label,
      title: f.hint ?? f.label,
    });
    const own = preview.fields.filter((f) => !f.common).map(opt);
    const common = preview.fields.filter((f) => f.common).map(opt);
    return [
      { value: NONE, label: 'Не импортировать' },
      { label: target.kind === 'module' ? 'Поля модуля' : 'Поля каталога', options: own },
      ...(common.length ? [{ label: 'Общие поля события', options: common }] : []),
    ];
  }, [preview.fields, target.kind]);

  const badRows = preview.rows.filter((r) => r.errors.length || r.cells.some((c) => c.error)).length;
  const needsCompany = target.kind === 'module' && companyId === undefined && !mapping.includes('company_id');
  const blocked = preview.mapping_errors.length > 0 || needsCompany;
  // The dry run of the whole file, once the mapping has settled (debounced like the sample).
  const [settled, setSettled] = useState(mapping);
  useEffect(() => {
    const t = setTimeout(() => setSettled(mapping), 400);
    return () => clearTimeout(t);
  }, [mapping]);
  const checkBody = {
    mapping: settled,
    ...(target.kind === 'module' && companyId !== undefined ? { company_id: companyId } : {}),
  };
  const checker = useImportCheck(target, item.id, checkBody, !blocked);
  const waiting = needsCompany
    ? 'Весь файл будет проверен, когда вы выберете компанию или сопоставите столбец «Компания»'
    : preview.mapping_errors.length
      ? 'Весь файл будет проверен, когда сопоставление будет исправлено'
      : undefined;
  const unmap = (col: number) => setMapping((m) => m.map((x, j) => (j === col ? null : x)));

  const start = () => {
    setStartError(undefined);
    starter.mutate(
      { id: item.id, mapping, mode, ...(target.kind === 'module' && companyId !== undefined ? { company_id: companyId } : {}) },
      { onSuccess: onStarted, onError: (e) => setStartError(errorMessage(e)) },
    );
  };

  const mappingRows = item.headers.map((header, i) => ({
    i,
    header,
    sample: preview.rows.find((r) => r.cells[i]?.value)?.cells[i]?.value ?? '',
  }));

  const previewColumns: ColumnsType<ImportPreviewRow> = [
    {
      title: 'Строка',
      dataIndex: 'row',
      width: 76,
      fixed: 'left',
      render: (row: number, r) =>
        r.errors.length ? (
          <Tooltip title={r.errors.join('; ')}>
            <Tag color="error">{row}</Tag>
          </Tooltip>
        ) : (
          row
        ),
    },
    ...item.headers.map((header, i) => {
      const key = mapping[i];
      return {
        key: String(i),
        width: 180,
        ellipsis: true,
        title: (
          <Flex vertical>
            <span>{header}</span>
            <Typography.Text type={key ? 'success' : 'secondary'} style={{ fontSize: 12, fontWeight: 400 }}>
              {key ? `→ ${fieldLabel.get(key) ?? key}` : 'не импортируется'}
            </Typography.Text>
          </Flex>
        ),
        onCell: (r: ImportPreviewRow) => ({
          className: r.cells[i]?.error ? 'import-cell-error' : undefined,
          style: r.cells[i]?.error ? { background: '#fff1f0' } : key ? undefined : { color: 'rgba(0,0,0,0.35)' },
        }),
        render: (_: unknown, r: ImportPreviewRow) => {
          const c = r.cells[i];
          if (!c) return null;
          if (!c.error) return c.value;
          return (
            <Tooltip title={c.error}>
              <Flex gap={6} align="center" data-testid="cell-error">
                <CloseCircleFilled style={{ color: '#ff4d4f' }} />
                <span>{c.value || '(пусто)'}</span>
              </Flex>
            </Tooltip>
          );
        },
      };
    }),
  ];

  return (
    <Flex vertical gap={16}>
      <Card
        title="2. Сопоставление столбцов"
        extra={
          <Typography.Text type="secondary">
            {item.file_name} · {formatFileSize(item.file_size)} ·{' '}
            {item.format === 'xlsx'
              ? 'Excel'
              : `CSV, ${item.encoding ? IMPORT_ENCODING_LABELS[item.encoding] : '—'}, разделитель ${item.delimiter ? IMPORT_DELIMITER_LABELS[item.delimiter] : '—'}`}
          </Typography.Text>
        }
        data-testid="import-mapping"
      >
        <Typography.Paragraph type="secondary">
          Столбцы сопоставлены по заголовкам автоматически. Проверьте и при необходимости выберите поле вручную; поля со
          звёздочкой обязательны.
        </Typography.Paragraph>
        <Table
          size="small"
          rowKey="i"
          pagination={false}
          dataSource={mappingRows}
          data-testid="mapping-table"
          columns={[
            { title: 'Столбец файла', dataIndex: 'header', width: '30%' },
            {
              title: 'Поле',
              key: 'field',
              width: '35%',
              render: (_, r) => (
                <Select
                  style={{ width: '100%' }}
                  value={mapping[r.i] ?? NONE}
                  options={options}
                  showSearch
                  optionFilterProp="label"
                  aria-label={`Поле для столбца «${r.header}»`}
                  onChange={(v: string) => setMapping((m) => m.map((x, j) => (j === r.i ? v || null : x)))}
                />
              ),
            },
            {
              title: 'Пример значения',
              dataIndex: 'sample',
              ellipsis: true,
              render: (v: string) => (v ? v : <Typography.Text type="secondary">—</Typography.Text>),
            },
          ]}
        />
        {preview.notes?.map((n) => (
          <Alert key={n} style={{ marginTop: 16 }} type="info" showIcon message={n} data-testid="mapping-note" />
        ))}
        {preview.mapping_errors.length > 0 && (
          <Alert
            style={{ marginTop: 16 }}
            type="warning"
            showIcon
            message="Исправьте сопоставление"
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {preview.mapping_errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            }
            data-testid="mapping-errors"
          />
        )}
      </Card>

      <Card title="3. Проверка всего файла" data-testid="import-check">
        <CheckSummary check={checker.data} loading={checker.isFetching} error={checker.error} waiting={waiting} onUnmap={unmap} />
      </Card>

      <Card
        title="Первые строки файла"
        extra={
          <Typography.Text type={badRows ? 'danger' : 'success'} data-testid="preview-summary">
            {sampleSummary(preview.rows.length, badRows)}
          </Typography.Text>
        }
      >
        <Typography.Paragraph type="secondary">
          Первые строки с проверкой каждой ячейки. Строки с ошибками не импортируются — они попадут в отчёт об ошибках, остальные
          будут загружены. Наведите на ячейку, чтобы увидеть причину.
        </Typography.Paragraph>
        <Table<ImportPreviewRow>
          size="small"
          rowKey="row"
          bordered
          pagination={false}
          loading={previewer.isPending && { delay: 300 }}
          dataSource={preview.rows}
          columns={previewColumns}
          scroll={{ x: 76 + item.headers.length * 180 }}
          data-testid="preview-table"
        />
      </Card>

      <Card title="4. Запуск">
        <Form layout="vertical">
          {companies && (
            <Form.Item
              label="Компания"
              required={!mapping.includes('company_id')}
              extra={mapping.includes('company_id') ? 'Для строк с пустым столбцом «Компания»' : undefined}
              validateStatus={needsCompany ? 'warning' : undefined}
              help={needsCompany ? 'Выберите компанию или сопоставьте столбец «Компания»' : undefined}
            >
              <Select
                style={{ maxWidth: 420 }}
                showSearch
                optionFilterProp="label"
                placeholder="Выберите компанию"
                options={companies}
                value={companyId}
                onChange={(v) => onCompany(v)}
                allowClear
                aria-label="Компания импорта"
              />
            </Form.Item>
          )}
          <Form.Item
            label={target.kind === 'module' ? 'Если событие уже есть' : 'Если запись уже есть'}
            extra={
              target.kind === 'module'
                ? 'Одинаковыми считаются события компании с тем же ключом модуля (например, доменом); дубликаты не создаются никогда.'
                : 'Одинаковыми считаются утечки с тем же названием.'
            }
          >
            <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} data-testid="import-mode">
              <Space direction="vertical">
                {IMPORT_MODES.map((m) => (
                  <Radio key={m} value={m}>
                    {IMPORT_MODE_LABELS[m]}
                    <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                      {m === 'update' ? 'заполненные ячейки файла заменят значения' : 'существующие не меняются'}
                    </Typography.Text>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          {startError && <Alert type="error" showIcon message={startError} style={{ marginBottom: 16 }} />}
          <Flex gap={8}>
            <Button
              type="primary"
              icon={<PlayCircleOutlined />}
              disabled={blocked}
              loading={starter.isPending}
              onClick={start}
              data-testid="import-start"
            >
              Запустить импорт
            </Button>
            <Button onClick={onCancel}>Загрузить другой файл</Button>
          </Flex>
        </Form>
      </Card>
    </Flex>
  );
}

import { UploadOutlined } from '@ant-design/icons';
import { HUNT_STATUS_LABELS, type HuntItem } from '@forpost/contract/hunts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Progress, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { feedback } from '../../lib/feedback';
import { formatDateTime, formatNumber } from '../../lib/format';
import { errorMessage, http } from '../../lib/http';
import { useLeaksQuery } from '../settings/api/queries';

type HuntRow = Omit<HuntItem, 'companies'>;
const STATUS_COLORS = { queued: 'default', running: 'processing', done: 'success', failed: 'error' } as const;
const active = (h: { status: string }) => h.status === 'queued' || h.status === 'running';

/** «Поиск утечек» (#34, staff admins): upload a dump, choose the catalogue entry, follow progress and the summary. */
export function HuntsPage() {
  const qc = useQueryClient();
  const [leakId, setLeakId] = useState<number>();
  const [file, setFile] = useState<File>();
  const [open, setOpen] = useState<number>();
  const leaks = useLeaksQuery({ page: 1, page_size: 200 });
  const list = useQuery({
    queryKey: ['hunts'],
    queryFn: () => http.get('hunts').json<{ items: HuntRow[] }>(),
    refetchInterval: (q) => (q.state.data?.items.some(active) ? 1000 : false),
  });
  const shown = open ?? list.data?.items[0]?.id;
  const item = useQuery({
    queryKey: ['hunts', shown],
    queryFn: () => http.get(`hunts/${shown}`).json<HuntItem>(),
    enabled: shown !== undefined,
    refetchInterval: (q) => (q.state.data && !active(q.state.data) ? false : 1000),
  });
  const start = useMutation({
    mutationFn: () => {
      const body = new FormData();
      body.append('file', file as File, (file as File).name);
      return http
        .post('hunts/upload', {
          body,
          searchParams: { leak_id: leakId as number },
          timeout: false,
          context: { errorMode: 'silent' },
        })
        .json<HuntItem>();
    },
    onSuccess: async (h) => {
      feedback.message.success('Поиск запущен');
      setOpen(h.id);
      setFile(undefined);
      await qc.invalidateQueries({ queryKey: ['hunts'] });
    },
    onError: (e) => feedback.message.error(errorMessage(e)),
  });
  const h = item.data;
  return (
    <>
      <PageHeading title="Поиск утечек" />
      <Card title="Новый поиск" style={{ marginBottom: 16 }}>
        <Form layout="inline">
          <Form.Item label="Утечка из каталога">
            <Select
              style={{ width: 320 }}
              placeholder="Выберите утечку"
              aria-label="Утечка из каталога"
              data-testid="hunt-leak"
              value={leakId}
              onChange={setLeakId}
              showSearch
              optionFilterProp="label"
              options={(leaks.data?.items ?? []).map((l) => ({ value: l.id, label: l.name }))}
            />
          </Form.Item>
          <Form.Item label="Дамп">
            <Upload
              maxCount={1}
              accept=".txt,.csv,.gz,.zst,.zip"
              beforeUpload={(f) => {
                setFile(f);
                return false;
              }}
              onRemove={() => setFile(undefined)}
              fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            >
              <Button icon={<UploadOutlined />}>Выбрать файл</Button>
            </Upload>
          </Form.Item>
          <Form.Item>
            <Button type="primary" disabled={!leakId || !file} loading={start.isPending} onClick={() => start.mutate()}>
              Начать поиск
            </Button>
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          TXT/CSV, .gz, .zst или .zip: строки email:пароль, логин:пароль, URL:логин:пароль, email;хеш и блоки stealer-логов.
          Сверяется с защищаемыми доменами, логинами и шаблонами логинов всех компаний (настройки компании, «Защищаемые активы»);
          пароли не сохраняются.
        </Typography.Paragraph>
      </Card>
      {h && (
        <Card title={`Поиск №${h.id}: ${h.file_name}`} style={{ marginBottom: 16 }} data-testid="hunt-item">
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space wrap>
              <Tag color={STATUS_COLORS[h.status]} data-testid="hunt-status">
                {HUNT_STATUS_LABELS[h.status]}
              </Tag>
              <span>Утечка: {h.leak_name}</span>
              <span>Строк: {formatNumber(h.progress.lines)}</span>
              {h.progress.parsed_lines < h.progress.lines ? (
                <span title={`Оценка по выборке: разобрано построчно ${formatNumber(h.progress.parsed_lines)} строк`}>
                  Нераспознано: ≈ {formatNumber(h.progress.unrecognized)} (оценка по {formatNumber(h.progress.parsed_lines)}{' '}
                  строк)
                </span>
              ) : (
                <span>Нераспознано: {formatNumber(h.progress.unrecognized)}</span>
              )}
              {h.progress.lines_per_second !== null && <span>{formatNumber(h.progress.lines_per_second)} строк/с</span>}
              {h.progress.eta_seconds !== null && <span>осталось ≈ {h.progress.eta_seconds} с</span>}
            </Space>
            <Progress
              percent={h.size ? Math.round((100 * h.progress.bytes) / h.size) : 0}
              status={h.status === 'failed' ? 'exception' : undefined}
            />
            {h.error && <Alert type="error" showIcon message={h.error} />}
            <Table
              size="small"
              rowKey="company_id"
              pagination={false}
              dataSource={h.companies}
              locale={{ emptyText: 'Совпадений с компаниями нет' }}
              columns={[
                { title: 'Компания', dataIndex: 'company_name' },
                { title: 'Найдено учётных записей', dataIndex: 'found', render: formatNumber },
                { title: 'Новых', dataIndex: 'new', render: formatNumber },
                { title: 'Уже известных', render: (_, c) => formatNumber(c.found - c.new) },
                { title: 'Корпоративные URL', dataIndex: 'corporate_urls', render: formatNumber },
              ]}
            />
          </Space>
        </Card>
      )}
      <Card title="История">
        <Table
          size="small"
          rowKey="id"
          loading={list.isLoading}
          dataSource={list.data?.items ?? []}
          onRow={(r) => ({ onClick: () => setOpen(r.id), style: { cursor: 'pointer' } })}
          columns={[
            { title: '№', dataIndex: 'id', width: 70 },
            { title: 'Файл', dataIndex: 'file_name' },
            { title: 'Утечка', dataIndex: 'leak_name' },
            {
              title: 'Статус',
              dataIndex: 'status',
              render: (s: HuntRow['status']) => <Tag color={STATUS_COLORS[s]}>{HUNT_STATUS_LABELS[s]}</Tag>,
            },
            { title: 'Строк', render: (_, r) => formatNumber(r.progress.lines) },
            { title: 'Начат', dataIndex: 'created_at', render: (d: string) => formatDateTime(d) },
          ]}
        />
      </Card>
    </>
  );
}

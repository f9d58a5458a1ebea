/*
 * /notifications/new and /notifications/{id}: a mailing's recipients, filters and schedule, with the
 * number of events the filters would have matched over the last 7 days, and the emails it sent.
 */
import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import {
  MAILING_DEFAULT_MAX_EVENTS,
  MAILING_MAX_RECIPIENTS,
  MAILING_MSG,
  type Mailing,
  type MailingFilterOptions,
  type MailingFilters,
  type MailingFrequency,
  type MailingParamOptions,
} from '@forpost/contract/mailings';
import { MSG } from '@forpost/contract/messages';
import { Link, useNavigate } from '@tanstack/react-router';
import { App, Button, Card, Col, Flex, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadingCard } from '../../components/page/QueryState';
import { formatHour } from '../../lib/format';
import { getErrorBody } from '../../lib/http';
import { useCan } from '../auth/useMe';
import { useCompanyFilter } from '../company/useCompanyId';
import { type MailingInput, useCreateMailingMutation, useDeleteMailingMutation, useUpdateMailingMutation } from './api/mutations';
import { useMailingFilterOptions, useMailingParamOptions, useMailingQuery } from './api/queries';
import { DeliveriesCard } from './components/DeliveriesCard';
import { MailingStatusTag } from './components/labels';
import { PreviewCard } from './components/PreviewCard';
import { RecipientsSelect, recipientsValidator } from './components/RecipientsSelect';

const ALL = 'all';

interface FormValues {
  name: string;
  company_id?: number | typeof ALL;
  recipients: string[];
  modules: MailingFilters['modules'];
  statuses: string[];
  priorities: string[];
  sources: MailingFilters['sources'];
  tags: number[];
  text: string;
  frequency: MailingFrequency;
  hour: number;
  weekday: number;
  quiet: boolean;
  quiet_from: number;
  quiet_to: number;
  format: 'html' | 'text';
  max_events: number;
  is_active: boolean;
}

const backLink = (
  <Link to="/notifications" style={{ display: 'inline-block', marginBottom: 8 }}>
    <ArrowLeftOutlined /> К списку рассылок
  </Link>
);

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: h, label: formatHour(h) }));

function toValues(m: Mailing | undefined, companyId: number | undefined, allAllowed: boolean): FormValues {
  if (!m) {
    return {
      name: '',
      company_id: companyId ?? (allAllowed ? ALL : undefined),
      recipients: [],
      modules: [],
      statuses: [],
      priorities: ['critical', 'high'],
      sources: [],
      tags: [],
      text: '',
      frequency: 'instant',
      hour: 9,
      weekday: 1,
      quiet: false,
      quiet_from: 22,
      quiet_to: 8,
      format: 'html',
      max_events: MAILING_DEFAULT_MAX_EVENTS,
      is_active: true,
    };
  }
  return {
    name: m.name,
    company_id: m.company_id ?? ALL,
    recipients: m.recipients,
    ...m.filters,
    frequency: m.params.frequency,
    hour: m.params.hour,
    weekday: m.params.weekday,
    quiet: m.params.quiet_hours !== null,
    quiet_from: m.params.quiet_hours?.from ?? 22,
    quiet_to: m.params.quiet_hours?.to ?? 8,
    format: m.params.format,
    max_events: m.params.max_events,
    is_active: m.is_active,
  };
}

function toBody(v: FormValues): MailingInput {
  return {
    name: v.name,
    company_id: v.company_id === ALL ? null : v.company_id,
    recipients: v.recipients,
    filters: {
      modules: v.modules,
      statuses: v.statuses,
      priorities: v.priorities,
      sources: v.sources,
      tags: v.tags,
      text: v.text ?? '',
    },
    params: {
      frequency: v.frequency,
      hour: v.hour,
      weekday: v.weekday,
      quiet_hours: v.quiet ? { from: v.quiet_from, to: v.quiet_to } : null,
      format: v.format,
      max_events: v.max_events,
    },
    is_active: v.is_active,
  };
}

/** API field path → form field. */
function formField(path: string): keyof FormValues | undefined {
  if (path.startsWith('recipients')) return 'recipients';
  if (path === 'name' || path === 'company_id') return path;
  if (path.startsWith('filters.')) return path.split('.')[1] as keyof FormValues;
  if (path.startsWith('params.quiet_hours')) return 'quiet';
  if (path.startsWith('params.')) return path.split('.')[1] as keyof FormValues;
  return undefined;
}

export function MailingPage({ id }: { id: 'new' | number }) {
  const filters = useMailingFilterOptions();
  const params = useMailingParamOptions();
  const mailing = useMailingQuery(id === 'new' ? undefined : id);
  const title = id === 'new' ? 'Новая рассылка' : (mailing.data?.name ?? 'Рассылка уведомлений');
  if (!filters.data || !params.data || (id !== 'new' && !mailing.data)) {
    return (
      <>
        <PageHeading title={title} back={backLink} />
        {mailing.isError ? null : <LoadingCard rows={10} />}
      </>
    );
  }
  return <MailingEditor key={id} mailing={id === 'new' ? undefined : mailing.data} filters={filters.data} params={params.data} />;
}

function MailingEditor({
  mailing,
  filters,
  params,
}: {
  mailing?: Mailing;
  filters: MailingFilterOptions;
  params: MailingParamOptions;
}) {
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const headerCompany = useCompanyFilter();
  const [form] = Form.useForm<FormValues>();
  const initial = useMemo(
    () => toValues(mailing, headerCompany, filters.all_companies_allowed),
    [mailing, headerCompany, filters.all_companies_allowed],
  );
  const companyId = mailing
    ? (mailing.company_id ?? undefined)
    : typeof initial.company_id === 'number'
      ? initial.company_id
      : undefined;
  const canManage = useCan('mailings.manage', companyId);
  const readOnly = !canManage;
  const create = useCreateMailingMutation();
  const update = useUpdateMailingMutation(mailing?.id ?? 0);
  const remove = useDeleteMailingMutation();
  const frequency = Form.useWatch('frequency', form) ?? initial.frequency;
  const quiet = Form.useWatch('quiet', form) ?? initial.quiet;

  // The preview follows the company and filters as they are edited.
  const watched = Form.useWatch([], form) as FormValues | undefined;
  const previewBody = useMemo(() => {
    const v = watched ?? initial;
    return {
      company_id: v.company_id === ALL || v.company_id === undefined ? null : v.company_id,
      filters: {
        modules: v.modules ?? [],
        statuses: v.statuses ?? [],
        priorities: v.priorities ?? [],
        sources: v.sources ?? [],
        tags: v.tags ?? [],
        text: v.text ?? '',
      },
    };
  }, [watched, initial]);

  const [saving, setSaving] = useState(false);
  const submit = async (v: FormValues) => {
    setSaving(true);
    try {
      const body = toBody(v);
      if (mailing) {
        await update.mutateAsync(body);
        message.success('Рассылка сохранена');
      } else {
        const m = await create.mutateAsync(body);
        message.success('Рассылка создана');
        void navigate({ to: '/notifications/$id', params: { id: String(m.id) }, replace: true });
      }
    } catch (e) {
      const err = getErrorBody(e);
      const fields = (err?.data as { fields?: Record<string, string> } | undefined)?.fields ?? {};
      const list = Object.entries(fields)
        .map(([k, msg]) => ({ name: formField(k), errors: [msg] }))
        .filter((f): f is { name: keyof FormValues; errors: string[] } => Boolean(f.name));
      if (list.length) form.setFields(list);
      message.error(err?.message ?? MSG.generic);
    } finally {
      setSaving(false);
    }
  };

  // Another mailing (or a new one): its values. The same mailing: the defaults follow the header's
  // company and the loaded filters only until the user edits the form — never over what they typed.
  const shownKey = useRef<string | null>(null);
  useEffect(() => {
    const key = String(mailing?.id ?? 'new');
    if (shownKey.current !== key) {
      shownKey.current = key;
      form.resetFields();
      form.setFieldsValue(initial);
    } else if (!form.isFieldsTouched()) form.setFieldsValue(initial);
  }, [form, initial, mailing?.id]);

  const companyOptions = [
    ...(filters.all_companies_allowed ? [{ value: ALL as number | typeof ALL, label: 'Все компании' }] : []),
    ...filters.companies.map((c) => ({
      value: c.id as number | typeof ALL,
      label: c.is_active ? c.name : `${c.name} (отключена)`,
    })),
  ];

  return (
    <>
      <PageHeading
        title={mailing ? mailing.name : 'Новая рассылка'}
        subtitle={mailing ? <MailingStatusTag m={mailing} /> : 'Письма о новых событиях, подходящих под фильтры'}
        back={backLink}
        extra={
          mailing && canManage ? (
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={() =>
                modal.confirm({
                  title: 'Удалить рассылку?',
                  content: 'Письма по ней больше не будут отправляться. История отправок удалится вместе с ней.',
                  okText: 'Удалить',
                  okButtonProps: { danger: true },
                  cancelText: 'Отмена',
                  onOk: () =>
                    remove.mutateAsync(mailing.id).then(() => {
                      message.success('Рассылка удалена');
                      void navigate({ to: '/notifications' });
                    }),
                })
              }
            >
              Удалить
            </Button>
          ) : null
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<FormValues>
            form={form}
            layout="vertical"
            initialValues={initial}
            onFinish={submit}
            disabled={readOnly}
            data-testid="mailing-form"
            onFinishFailed={() => message.error(MSG.fillRequired)}
          >
            <Card title="Рассылка" style={{ marginBottom: 16 }}>
              <Row gutter={16}>
                <Col xs={24} md={14}>
                  <Form.Item
                    name="name"
                    label="Название"
                    rules={[
                      { required: true, whitespace: true, message: MSG.required },
                      { max: 200, message: MSG.tooLong(200) },
                      { pattern: /^[^\r\n]*$/, message: MAILING_MSG.nameNewline },
                    ]}
                  >
                    <Input placeholder="Например: Критичные домены — SOC" maxLength={200} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={10}>
                  <Form.Item
                    name="company_id"
                    label="Компания"
                    rules={[{ required: true, message: MAILING_MSG.companyRequired }]}
                  >
                    <Select options={companyOptions} placeholder="Выберите компанию" showSearch optionFilterProp="label" />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item
                name="recipients"
                label="Получатели"
                extra="Введите адрес и нажмите Enter; можно вставить список через запятую"
                rules={[
                  { required: true, type: 'array', min: 1, message: MAILING_MSG.recipientsRequired },
                  { type: 'array', max: MAILING_MAX_RECIPIENTS, message: MAILING_MSG.recipientsTooMany },
                  { validator: recipientsValidator },
                ]}
              >
                <RecipientsSelect placeholder="soc@example.ru" data-testid="recipients" />
              </Form.Item>
              <Form.Item name="is_active" label="Отправлять письма" valuePropName="checked" style={{ marginBottom: 0 }}>
                <Switch />
              </Form.Item>
            </Card>

            <Card title="Какие события" style={{ marginBottom: 16 }}>
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item name="modules" label="Модули">
                    <Select
                      mode="multiple"
                      allowClear
                      placeholder="Все модули"
                      options={filters.modules}
                      optionFilterProp="label"
                      maxTagCount="responsive"
                      data-testid="filter-modules"
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="priorities" label="Приоритеты">
                    <Select
                      mode="multiple"
                      allowClear
                      placeholder="Любой приоритет"
                      options={filters.priorities}
                      data-testid="filter-priorities"
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="statuses" label="Статусы">
                    <Select mode="multiple" allowClear placeholder="Любой статус" options={filters.statuses} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="sources" label="Источники">
                    <Select mode="multiple" allowClear placeholder="Любой источник" options={filters.sources} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="tags" label="Теги">
                    <Select
                      mode="multiple"
                      allowClear
                      placeholder="Любые теги"
                      options={filters.tags.map((t) => ({ value: t.id, label: t.name }))}
                      optionFilterProp="label"
                      notFoundContent="Тегов нет"
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="text" label="Текст" rules={[{ max: 200, message: MSG.tooLong(200) }]}>
                    <Input placeholder="Слова в событии (как поиск в списках)" allowClear />
                  </Form.Item>
                </Col>
              </Row>
            </Card>

            <Card title="Когда и как отправлять" style={{ marginBottom: 16 }}>
              <Form.Item name="frequency" label="Периодичность">
                <Radio.Group
                  optionType="button"
                  options={params.frequencies.map((f) => ({
                    value: f.value,
                    label: f.label.replace(' (каждое новое событие)', ''),
                  }))}
                />
              </Form.Item>
              <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
                {frequency === 'instant'
                  ? 'Письмо уходит вскоре после появления событий (не чаще раза в минуту); все новые события — в одном письме.'
                  : frequency === 'hourly'
                    ? 'Одно письмо в начале каждого часа со всеми новыми событиями за час.'
                    : 'Одно письмо-сводка в указанное время; пустые сводки не отправляются.'}
              </Typography.Paragraph>
              <Space wrap size={16} align="start">
                {(frequency === 'daily' || frequency === 'weekly') && (
                  <Form.Item name="hour" label="Время (МСК)">
                    <Select options={HOURS} style={{ width: 110 }} />
                  </Form.Item>
                )}
                {frequency === 'weekly' && (
                  <Form.Item name="weekday" label="День недели">
                    <Select options={params.weekdays} style={{ width: 160 }} />
                  </Form.Item>
                )}
                <Form.Item name="format" label="Формат письма">
                  <Radio.Group options={params.formats} />
                </Form.Item>
                <Form.Item name="max_events" label="Событий в письме, не более" tooltip="Остальные — строкой «и ещё N событий»">
                  <InputNumber min={1} max={params.max_events_limit} style={{ width: 120 }} />
                </Form.Item>
              </Space>
              <Flex gap={12} align="center" wrap>
                <Form.Item name="quiet" valuePropName="checked" noStyle>
                  <Switch />
                </Form.Item>
                <Typography.Text>Тихие часы (МСК)</Typography.Text>
                {quiet && (
                  <>
                    <Typography.Text type="secondary">с</Typography.Text>
                    <Form.Item name="quiet_from" noStyle>
                      <Select options={HOURS} style={{ width: 100 }} aria-label="Начало тихих часов" />
                    </Form.Item>
                    <Typography.Text type="secondary">до</Typography.Text>
                    <Form.Item
                      name="quiet_to"
                      noStyle
                      rules={[
                        {
                          validator: async (_, v) => {
                            if (v === form.getFieldValue('quiet_from')) throw new Error(MAILING_MSG.quietSame);
                          },
                        },
                      ]}
                    >
                      <Select options={HOURS} style={{ width: 100 }} aria-label="Конец тихих часов" />
                    </Form.Item>
                    <Typography.Text type="secondary">— письма ждут до конца тихих часов</Typography.Text>
                  </>
                )}
              </Flex>
            </Card>

            {!readOnly && (
              <Flex gap={8}>
                <Button type="primary" htmlType="submit" loading={saving} data-testid="mailing-save">
                  {mailing ? 'Сохранить' : 'Создать рассылку'}
                </Button>
                <Link to="/notifications">
                  <Button>Отмена</Button>
                </Link>
              </Flex>
            )}
          </Form>
        </Col>
        <Col xs={24} xl={8}>
          <div style={{ position: 'sticky', top: 16 }}>
            <PreviewCard body={previewBody} />
            {mailing && (
              <Card size="small" title="Статистика" style={{ marginTop: 16 }}>
                <Flex vertical gap={4}>
                  <span>Отправлено событий: {mailing.stats.events_sent}</span>
                  <span>Ждут отправки: {mailing.stats.events_pending}</span>
                  <span>Писем отправлено: {mailing.stats.deliveries_sent}</span>
                  {mailing.stats.deliveries_failed > 0 && (
                    <Typography.Text type="danger">Писем с ошибкой: {mailing.stats.deliveries_failed}</Typography.Text>
                  )}
                </Flex>
              </Card>
            )}
          </div>
        </Col>
        {mailing && (
          <Col span={24}>
            <DeliveriesCard mailingId={mailing.id} />
          </Col>
        )}
      </Row>
    </>
  );
}

/* Adding a webhook endpoint or a syslog output: the address, the company, the messages it wants. */

import { OUTBOX_TYPES } from '@forpost/contract/integrations';
import { MSG } from '@forpost/contract/messages';
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { FormModal, useFormModal } from '../../components/form/FormModal';
import { useCompanyOptions } from '../companies/api/queries';
import { type Created, useCreateIntegrationMutation } from './api';

interface Values {
  company_id: number | null;
  name: string;
  url?: string;
  host?: string;
  port?: number;
  tls?: boolean;
  types: string[];
}
const FIELDS = ['company_id', 'name', 'url', 'host', 'port', 'tls', 'types'];
const TYPE_OPTIONS = Object.entries(OUTBOX_TYPES).map(([value, label]) => ({ value, label }));
/** The instance's own output (every company): staff only. */
const INSTANCE = 0;

export function IntegrationModal({
  kind,
  companyId,
  staff,
  onClose,
  onCreated,
}: {
  kind: 'webhook' | 'syslog' | null;
  companyId: number | undefined;
  staff: boolean;
  onClose: () => void;
  onCreated: (c: Created) => void;
}) {
  const { form, formError, reset, submit } = useFormModal<Values>();
  const create = useCreateIntegrationMutation();
  const companies = useCompanyOptions();

  useEffect(() => {
    if (!kind) return;
    reset({ company_id: companyId ?? null, name: '', types: [], port: 6514, tls: true });
  }, [kind, companyId, reset]);

  const onOk = () =>
    submit(async (v) => {
      const company = v.company_id === INSTANCE ? null : v.company_id;
      const body =
        kind === 'webhook'
          ? { company_id: company, name: v.name, url: v.url, types: v.types }
          : { company_id: company, name: v.name, host: v.host, port: v.port, tls: v.tls ?? false, types: v.types };
      const c = await create.mutateAsync({ kind: kind === 'webhook' ? 'webhooks' : 'syslog', body });
      onCreated(c);
    }, FIELDS);

  const companyOptions = [
    ...(kind === 'syslog' && staff ? [{ value: INSTANCE, label: 'Весь экземпляр (все компании)' }] : []),
    ...companies.options,
  ];

  return (
    <FormModal<Values>
      open={kind !== null}
      title={kind === 'webhook' ? 'Новый веб-хук' : 'Новый вывод syslog'}
      isNew
      saving={create.isPending}
      width={640}
      form={form}
      formError={formError}
      formProps={{ onFinish: () => void onOk() }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <Form.Item name="company_id" label="Компания" rules={[{ required: true, message: MSG.required }]}>
        <Select options={companyOptions} showSearch optionFilterProp="label" data-testid="int-company" />
      </Form.Item>
      <Form.Item name="name" label="Название" rules={[{ required: true, whitespace: true, message: MSG.required }]}>
        <Input autoFocus maxLength={200} placeholder={kind === 'webhook' ? 'SOAR, чат-бот' : 'SIEM'} data-testid="int-name" />
      </Form.Item>
      {kind === 'webhook' ? (
        <Form.Item
          name="url"
          label="Адрес"
          rules={[{ required: true, whitespace: true, message: MSG.required }]}
          extra="POST с заголовками webhook-id, webhook-timestamp, webhook-signature (Standard Webhooks); перенаправления не выполняются"
        >
          <Input maxLength={2000} placeholder="https://soar.example.ru/hooks/forpost" data-testid="int-url" />
        </Form.Item>
      ) : (
        <>
          <Form.Item name="host" label="Сервер" rules={[{ required: true, whitespace: true, message: MSG.required }]}>
            <Input maxLength={253} placeholder="siem.example.ru" data-testid="int-host" />
          </Form.Item>
          <Form.Item name="port" label="Порт" rules={[{ required: true, message: MSG.required }]}>
            <InputNumber min={1} max={65535} data-testid="int-port" />
          </Form.Item>
          <Form.Item
            name="tls"
            label="TLS"
            valuePropName="checked"
            extra="RFC 5424 по TCP с подсчётом октетов (RFC 6587); с TLS — обычно порт 6514"
          >
            <Switch />
          </Form.Item>
        </>
      )}
      <Form.Item name="types" label="Сообщения" extra="Пусто — все">
        <Select mode="multiple" options={TYPE_OPTIONS} allowClear placeholder="Все сообщения" data-testid="int-types" />
      </Form.Item>
    </FormModal>
  );
}

import { SaveOutlined } from '@ant-design/icons';
import { createCompanyRequest, updateCompanyRequest } from '@forpost/contract/companies';
import { MSG } from '@forpost/contract/messages';
import { isEmail, isInn, isOgrn } from '@forpost/contract/validation';
import { Alert, Button, Card, Col, Flex, Form, type FormRule, Input, Row, Select, Space, Switch, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { applyApiErrors, parseForForm } from '../../../components/form/forms';
import { feedback } from '../../../lib/feedback';
import { errorMessage } from '../../../lib/http';
import { requiredRule } from '../../auth/components/shared';
import { type CompanyDetail, useModuleOptions } from '../api/queries';

export interface CompanyFormValues {
  name: string;
  legal_name?: string;
  inn?: string;
  ogrn?: string;
  contact_name?: string;
  contact_email?: string;
  contact_phone?: string;
  modules: string[];
  is_active: boolean;
}
export type CompanyBody = ReturnType<typeof createCompanyRequest.parse>;

const check =
  (ok: (s: string) => boolean, msg: string): FormRule =>
  () => ({
    validator: (_, v: unknown) => {
      const s = typeof v === 'string' ? v.trim() : '';
      return s === '' || ok(s) ? Promise.resolve() : Promise.reject(new Error(msg));
    },
  });

const DEACTIVATE_WARNING = 'Пользователи, API-ключи и рассылки компании будут приостановлены';

/**
 * Company details: name, legal name, ИНН and ОГРН (contract checksums), contacts, modules, active
 * switch (turning it off asks first). Used by «Новая компания» and the edit page's main tab.
 */
export function CompanyForm({
  company,
  onSubmit,
  submitting,
  submitText,
  extraActions,
}: {
  company?: CompanyDetail;
  onSubmit: (body: CompanyBody) => Promise<unknown>;
  submitting: boolean;
  submitText: string;
  extraActions?: ReactNode;
}) {
  const [form] = Form.useForm<CompanyFormValues>();
  const { message, modal } = feedback;
  const modules = useModuleOptions();
  const [formError, setFormError] = useState<string | null>(null);

  const initialValues: CompanyFormValues = {
    name: company?.name ?? '',
    legal_name: company?.legal_name ?? '',
    inn: company?.inn ?? '',
    ogrn: company?.ogrn ?? '',
    contact_name: company?.contact_name ?? '',
    contact_email: company?.contact_email ?? '',
    contact_phone: company?.contact_phone ?? '',
    modules: company?.modules ?? [],
    is_active: company?.is_active ?? true,
  };

  /** Turning an active company off asks first (the Switch has already flipped: put it back until confirmed). */
  const onActiveChange = (on: boolean) => {
    if (on || !company?.is_active) return;
    form.setFieldValue('is_active', true);
    modal.confirm({
      title: 'Отключить компанию?',
      content: `${DEACTIVATE_WARNING}. Изменение вступит в силу после сохранения.`,
      okText: 'Отключить',
      okButtonProps: { danger: true },
      cancelText: 'Отмена',
      onOk: () => form.setFieldValue('is_active', false),
    });
  };

  const onFinish = async (v: CompanyFormValues) => {
    setFormError(null);
    const schema = company ? updateCompanyRequest : createCompanyRequest;
    const parsed = parseForForm(form, schema, v);
    if (!parsed) {
      message.error(MSG.fillRequired);
      return;
    }
    try {
      await onSubmit(parsed as CompanyBody);
    } catch (e) {
      console.error('Сохранение компании не удалось', e);
      applyApiErrors(form, e, Object.keys(initialValues));
      setFormError(errorMessage(e));
    }
  };

  const isActive = Form.useWatch('is_active', form) ?? initialValues.is_active;

  return (
    <Form<CompanyFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={(v) => void onFinish(v)}
      onFinishFailed={() => message.error(MSG.fillRequired)}
      onValuesChange={() => formError && setFormError(null)}
      data-testid="company-form"
    >
      <Flex vertical gap={16}>
        <Card title="Реквизиты">
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="name" label="Название" rules={[requiredRule, { max: 200, message: MSG.tooLong(200) }]}>
                <Input maxLength={200} placeholder="Как компания называется в консоли" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="legal_name" label="Юридическое название" rules={[{ max: 300, message: MSG.tooLong(300) }]}>
                <Input maxLength={300} placeholder="ООО «Пример»" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="inn" label="ИНН" rules={[check(isInn, MSG.inn)]} extra="10 цифр для организации, 12 — для ИП">
                <Input maxLength={12} inputMode="numeric" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="ogrn" label="ОГРН" rules={[check(isOgrn, MSG.ogrn)]} extra="13 цифр (ОГРН) или 15 (ОГРНИП)">
                <Input maxLength={15} inputMode="numeric" />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card title="Контакты">
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="contact_name" label="Контактное лицо" rules={[{ max: 200, message: MSG.tooLong(200) }]}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="contact_email" label="Email" rules={[check(isEmail, MSG.email)]}>
                <Input maxLength={254} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="contact_phone" label="Телефон" rules={[{ max: 50, message: MSG.tooLong(50) }]}>
                <Input maxLength={50} placeholder="+7 …" />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card title="Доступ">
          <Form.Item name="modules" label="Подключённые модули" extra="Разделы мониторинга, доступные компании">
            <Select
              mode="multiple"
              allowClear
              options={modules.options}
              placeholder="Выберите модули"
              showSearch={{ optionFilterProp: 'label' }}
              aria-label="Подключённые модули"
            />
          </Form.Item>
          <Form.Item label="Компания активна" style={{ marginBottom: 0 }}>
            <Space align="center">
              <Form.Item name="is_active" valuePropName="checked" noStyle>
                <Switch onChange={onActiveChange} aria-label="Компания активна" data-testid="company-active" />
              </Form.Item>
              <Typography.Text type={isActive ? undefined : 'danger'}>
                {isActive ? 'Работает' : DEACTIVATE_WARNING}
              </Typography.Text>
            </Space>
          </Form.Item>
        </Card>
        {formError && <Alert type="error" showIcon title={formError} data-testid="company-form-error" />}
        <Space>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={submitting}>
            {submitText}
          </Button>
          {extraActions}
        </Space>
      </Flex>
    </Form>
  );
}

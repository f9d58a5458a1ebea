import { MAILING_MAX_RECIPIENTS, MAILING_MSG, type MailingFilterOptions } from '@forpost/contract/mailings';
import { MSG } from '@forpost/contract/messages';
import { Card, Col, Form, Input, Row, Select, Switch } from 'antd';
import { RecipientsSelect, recipientsValidator } from '../components/RecipientsSelect';
import { ALL } from './values';

/** «Рассылка»: name, company («Все компании» when allowed; disabled companies marked), recipients, on/off. */
export function MailingCard({ filters }: { filters: MailingFilterOptions }) {
  const companyOptions = [
    ...(filters.all_companies_allowed ? [{ value: ALL as number | typeof ALL, label: 'Все компании' }] : []),
    ...filters.companies.map((c) => ({
      value: c.id as number | typeof ALL,
      label: c.is_active ? c.name : `${c.name} (отключена)`,
    })),
  ];
  return (
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
          <Form.Item name="company_id" label="Компания" rules={[{ required: true, message: MAILING_MSG.companyRequired }]}>
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
  );
}

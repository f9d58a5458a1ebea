import { FilePdfOutlined } from '@ant-design/icons';
import { addDays, dayIn } from '@forpost/contract/analytics';
import { MSG } from '@forpost/contract/messages';
import { MODULE_LIST } from '@forpost/contract/modules';
import { REPORT_SUMMARY_MAX } from '@forpost/contract/reports';
import { Button, Card, Col, DatePicker, Form, Input, Row, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { feedback } from '../../../lib/feedback';
import { dayjs } from '../../../lib/format';
import { useCompanyOptions } from '../../companies/api/queries';
import { useCompanyFilter } from '../../company/useCompanyId';
import { useCreateReportMutation } from '../api/mutations';

const API_DAY = 'YYYY-MM-DD';

interface Values {
  company_id?: number;
  period: [Dayjs, Dayjs];
  modules: string[];
  name?: string;
  summary?: string;
}

/** «Новый отчёт»: company, period (dd.MM.yyyy, presets), modules, optional name and analyst's summary (page 1 of the PDF). */
export function CreateReportCard() {
  const { message } = feedback;
  const [form] = Form.useForm<Values>();
  const headerCompany = useCompanyFilter();
  const companies = useCompanyOptions();
  const create = useCreateReportMutation();
  const today = dayIn(new Date());

  useEffect(() => {
    if (headerCompany !== undefined) form.setFieldValue('company_id', headerCompany);
  }, [headerCompany, form]);

  const presets = [7, 30, 90].map((n) => ({
    label: `${n} дней`,
    value: [dayjs(addDays(today, -(n - 1)), API_DAY), dayjs(today, API_DAY)] as [Dayjs, Dayjs],
  }));

  return (
    <Card title="Новый отчёт" style={{ marginBottom: 16 }}>
      <Form<Values>
        form={form}
        layout="vertical"
        data-testid="report-form"
        initialValues={{ company_id: headerCompany, period: presets[1]?.value, modules: [] }}
        onFinishFailed={() => message.error(MSG.fillRequired)}
        onFinish={(v) =>
          create
            .mutateAsync({
              company_id: v.company_id as number,
              from: v.period[0].format(API_DAY),
              to: v.period[1].format(API_DAY),
              modules: v.modules as never,
              ...(v.name?.trim() ? { name: v.name.trim() } : {}),
              ...(v.summary?.trim() ? { summary: v.summary.trim() } : {}),
            })
            .then(() => {
              message.success('Отчёт формируется — он появится в списке через несколько секунд');
              form.setFieldValue('name', undefined);
              form.setFieldValue('summary', undefined);
            })
        }
      >
        <Row gutter={16} align="bottom">
          <Col xs={24} md={12} xl={5}>
            <Form.Item name="company_id" label="Компания" rules={[{ required: true, message: MSG.required }]}>
              <Select
                options={companies.options}
                placeholder="Выберите компанию"
                showSearch
                optionFilterProp="label"
                loading={companies.isLoading}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={5}>
            <Form.Item name="period" label="Период" rules={[{ required: true, message: MSG.required }]}>
              <DatePicker.RangePicker
                format="DD.MM.YYYY"
                presets={presets}
                style={{ width: '100%' }}
                disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={5}>
            <Form.Item name="modules" label="Модули">
              <Select
                mode="multiple"
                allowClear
                placeholder="Все модули"
                maxTagCount="responsive"
                options={MODULE_LIST.map((m) => ({ value: m.code, label: m.name }))}
                optionFilterProp="label"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={4}>
            <Form.Item name="name" label="Название" rules={[{ max: 200, message: MSG.tooLong(200) }]}>
              <Input placeholder="По умолчанию — компания и период" />
            </Form.Item>
          </Col>
          {/* Room for the whole «Сформировать» at 1280 px (a 3/24 column clipped it). */}
          <Col xs={24} xl={5}>
            <Form.Item>
              <Button
                type="primary"
                htmlType="submit"
                icon={<FilePdfOutlined />}
                loading={create.isPending}
                block
                data-testid="report-create"
              >
                Сформировать
              </Button>
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="summary"
          label="Резюме аналитика"
          extra="Выводы и рекомендации — на первой странице отчёта"
          rules={[{ max: REPORT_SUMMARY_MAX, message: MSG.tooLong(REPORT_SUMMARY_MAX) }]}
          style={{ marginBottom: 0 }}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 8 }}
            maxLength={REPORT_SUMMARY_MAX}
            showCount
            placeholder="Необязательно"
            data-testid="report-summary"
          />
        </Form.Item>
      </Form>
    </Card>
  );
}

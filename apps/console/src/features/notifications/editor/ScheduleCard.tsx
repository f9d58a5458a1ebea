import { MAILING_MSG, type MailingFrequency, type MailingParamOptions } from '@forpost/contract/mailings';
import { Card, Flex, Form, InputNumber, Radio, Select, Space, Switch, Typography } from 'antd';
import { formatHour } from '../../../lib/format';

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: h, label: formatHour(h) }));

const DIGEST_HELP = 'Одно письмо-сводка в указанное время; пустые сводки не отправляются.';
const FREQUENCY_HELP: Record<MailingFrequency, string> = {
  instant: 'Письмо уходит вскоре после появления событий (не чаще раза в минуту); все новые события — в одном письме.',
  hourly: 'Одно письмо в начале каждого часа со всеми новыми событиями за час.',
  daily: DIGEST_HELP,
  weekly: DIGEST_HELP,
};

/** «Когда и как отправлять»: frequency (with hour and weekday of a digest), format, size and quiet hours. */
export function ScheduleCard({
  params,
  frequency,
  quiet,
}: {
  params: MailingParamOptions;
  frequency: MailingFrequency;
  quiet: boolean;
}) {
  return (
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
        {FREQUENCY_HELP[frequency]}
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
      <QuietHours on={quiet} />
    </Card>
  );
}

/** The quiet-hours switch and, when on, its start and end hour (which may not be equal). */
function QuietHours({ on }: { on: boolean }) {
  return (
    <Flex gap={12} align="center" wrap>
      <Form.Item name="quiet" valuePropName="checked" noStyle>
        <Switch />
      </Form.Item>
      <Typography.Text>Тихие часы (МСК)</Typography.Text>
      {on && (
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
              ({ getFieldValue }) => ({
                validator: async (_, v) => {
                  if (v === getFieldValue('quiet_from')) throw new Error(MAILING_MSG.quietSame);
                },
              }),
            ]}
          >
            <Select options={HOURS} style={{ width: 100 }} aria-label="Конец тихих часов" />
          </Form.Item>
          <Typography.Text type="secondary">— письма ждут до конца тихих часов</Typography.Text>
        </>
      )}
    </Flex>
  );
}

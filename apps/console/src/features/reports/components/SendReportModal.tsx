import { MSG } from '@forpost/contract/messages';
import type { Report } from '@forpost/contract/reports';
import { isEmail } from '@forpost/contract/validation';
import { Alert, Form, Modal, Select, Typography } from 'antd';
import { feedback } from '../../../lib/feedback';
import { useReportActionMutation } from '../api/mutations';
import { sendState } from '../sendState';

/**
 * «Отправить по почте»: the PDF goes as an attachment to the given addresses. The request only queues
 * the send (the answer is immediate whatever the mail server does); the list then shows its state.
 */
export function SendReportModal({ report, onClose }: { report: Report | null; onClose: () => void }) {
  const { message } = feedback;
  const [form] = Form.useForm<{ recipients: string[] }>();
  const action = useReportActionMutation();
  const last = report?.last_send ? sendState(report.last_send) : null;
  return (
    <Modal
      open={report !== null}
      title="Отправить отчёт по почте"
      okText="Отправить"
      cancelText="Отмена"
      confirmLoading={action.isPending}
      destroyOnHidden
      onCancel={onClose}
      onOk={() =>
        form.validateFields().then((v) =>
          action.mutateAsync({ id: report?.id ?? 0, action: 'send', recipients: v.recipients.map((x) => x.trim()) }).then((r) => {
            message.success(r.message);
            onClose();
          }),
        )
      }
    >
      <Typography.Paragraph type="secondary">{report?.name}</Typography.Paragraph>
      {last && (
        <Alert
          data-testid="report-last-send"
          style={{ marginBottom: 16 }}
          type={last.color === 'default' || last.color === 'processing' ? 'info' : last.color}
          showIcon
          title={`Последняя отправка: ${last.text}`}
          description={last.detail}
        />
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="recipients"
          label="Получатели"
          extra="Введите адрес и нажмите Enter"
          rules={[
            { required: true, type: 'array', min: 1, message: MSG.required },
            {
              validator: async (_, list: string[] = []) => {
                if (list.some((e) => !isEmail(e.trim()))) throw new Error(MSG.email);
              },
            },
          ]}
        >
          <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',', ';', ' ']} placeholder="ciso@example.ru" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

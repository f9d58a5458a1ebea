import { MAILING_MSG } from '@forpost/contract/mailings';
import type { Report } from '@forpost/contract/reports';
import { isEmail } from '@forpost/contract/validation';
import { App, Form, Modal, Select, Typography } from 'antd';
import { useReportActionMutation } from '../api/mutations';

/** «Отправить по почте»: the PDF goes as an attachment to the given addresses. */
export function SendReportModal({ report, onClose }: { report: Report | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ recipients: string[] }>();
  const action = useReportActionMutation();
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
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="recipients"
          label="Получатели"
          extra="Введите адрес и нажмите Enter"
          rules={[
            { required: true, type: 'array', min: 1, message: MAILING_MSG.recipientsRequired },
            {
              validator: async (_, list: string[] = []) => {
                const bad = list.find((e) => !isEmail(e.trim()));
                if (bad) throw new Error(MAILING_MSG.recipientInvalid(bad));
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

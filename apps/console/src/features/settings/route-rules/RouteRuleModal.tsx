import { MSG } from '@forpost/contract/messages';
import { ROUTE_RULE_MSG } from '@forpost/contract/route-rules';
import { Checkbox, Form, Input } from 'antd';
import { useEffect } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { feedback } from '../../../lib/feedback';
import { type RouteRule, useSaveRouteRuleMutation } from './api';

interface Values {
  path: string;
  target: string;
  permanent: boolean;
  comment: string;
}
const FIELDS = ['path', 'target', 'permanent', 'comment'];

/** Create (rule = null) or edit a redirect; the API checks the rest (console routes, loops). */
export function RouteRuleModal({ rule, open, onClose }: { rule: RouteRule | null; open: boolean; onClose: () => void }) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const save = useSaveRouteRuleMutation();

  useEffect(() => {
    if (!open) return;
    reset({
      path: rule?.path ?? '',
      target: rule?.target ?? '',
      permanent: rule?.permanent ?? false,
      comment: rule?.comment ?? '',
    });
  }, [open, rule, reset]);

  const onOk = () =>
    submit(async (v) => {
      await save.mutateAsync({ id: rule?.id, body: { ...v, comment: v.comment.trim() || null } });
      message.success(rule ? 'Перенаправление сохранено' : 'Перенаправление добавлено');
      onClose();
    }, FIELDS);

  return (
    <FormModal<Values>
      open={open}
      title={rule ? `Перенаправление ${rule.path}` : 'Новое перенаправление'}
      isNew={!rule}
      saving={save.isPending}
      width={600}
      form={form}
      formError={formError}
      formProps={{ onFinish: () => void onOk() }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <Form.Item
        name="path"
        label="Старый путь"
        rules={[
          { required: true, whitespace: true, message: MSG.required },
          { pattern: /^\/(?!\/)/, message: ROUTE_RULE_MSG.pathStart },
        ]}
        extra="Путь, которого нет в консоли, например /old-reports"
      >
        <Input autoFocus placeholder="/old-reports" maxLength={500} data-testid="rr-path" />
      </Form.Item>
      <Form.Item
        name="target"
        label="Куда вести"
        rules={[
          { required: true, whitespace: true, message: MSG.required },
          { pattern: /^(\/(?!\/)|https?:\/\/)/i, message: ROUTE_RULE_MSG.target },
        ]}
        extra="Путь консоли (/reports) или внешний адрес https://…"
      >
        <Input placeholder="/reports" maxLength={2000} data-testid="rr-target" />
      </Form.Item>
      <Form.Item name="permanent" valuePropName="checked">
        <Checkbox>Постоянное (301)</Checkbox>
      </Form.Item>
      <Form.Item name="comment" label="Комментарий">
        <Input.TextArea rows={2} maxLength={500} showCount placeholder="Зачем это перенаправление" />
      </Form.Item>
    </FormModal>
  );
}

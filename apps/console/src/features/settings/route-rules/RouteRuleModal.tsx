import { MSG } from '@forpost/contract/messages';
import { isExternalTarget, normalizeRuleTarget, ROUTE_RULE_MSG } from '@forpost/contract/route-rules';
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
  const { message, modal } = feedback;
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

  const persist = (v: Values) =>
    submit(async () => {
      await save.mutateAsync({ id: rule?.id, body: { ...v, comment: v.comment.trim() || null } });
      message.success(rule ? 'Перенаправление сохранено' : 'Перенаправление добавлено');
      onClose();
    }, FIELDS);

  /** An external target sends visitors of this site elsewhere: the administrator confirms it first. */
  const onOk = () =>
    submit(async (v) => {
      const target = v.target.trim();
      const changed = !rule || rule.target !== target || rule.permanent !== v.permanent;
      if (!isExternalTarget(target) || !changed) return persist(v);
      const n = normalizeRuleTarget(target);
      const shown = 'target' in n ? new URL(n.target).host : target;
      modal.confirm({
        title: 'Перенаправить на внешний сайт?',
        content: (
          <div data-testid="rr-external-warning">
            Посетители консоли по адресу {form.getFieldValue('path')} уйдут на другой сайт — {shown}. Убедитесь, что это адрес
            вашей организации.
            {v.permanent &&
              ' Постоянное перенаправление (301) браузеры запоминают: после удаления правила они ещё долго будут уходить по нему.'}
          </div>
        ),
        okText: 'Сохранить',
        okButtonProps: { danger: true },
        cancelText: 'Отмена',
        onOk: () => persist(v),
      });
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
          {
            validator: (_, t: string | undefined) => {
              if (!t?.trim()) return Promise.resolve();
              const n = normalizeRuleTarget(t);
              return 'error' in n ? Promise.reject(new Error(n.error)) : Promise.resolve();
            },
          },
        ]}
        extra="Путь консоли (/reports) или внешний адрес https://…"
      >
        <Input placeholder="/reports" maxLength={2000} data-testid="rr-target" />
      </Form.Item>
      <Form.Item name="permanent" valuePropName="checked">
        <Checkbox>Постоянное (301): браузеры запоминают его, удаление правила их не вернёт</Checkbox>
      </Form.Item>
      <Form.Item name="comment" label="Комментарий">
        <Input.TextArea rows={2} maxLength={500} showCount placeholder="Зачем это перенаправление" />
      </Form.Item>
    </FormModal>
  );
}

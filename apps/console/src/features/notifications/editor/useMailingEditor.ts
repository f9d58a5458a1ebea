import type { Mailing, MailingFilterOptions } from '@forpost/contract/mailings';
import { useNavigate } from '@tanstack/react-router';
import { Form } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { applyApiErrors } from '../../../components/form/forms';
import { feedback } from '../../../lib/feedback';
import { errorMessage } from '../../../lib/http';
import { useCan } from '../../auth/useMe';
import { useCompanyFilter } from '../../company/useCompanyId';
import { useCreateMailingMutation, useDeleteMailingMutation, useUpdateMailingMutation } from '../api/mutations';
import { filtersBody, formField, type MailingFormValues, toBody, toValues } from './values';

/** Form fields an API field error can land on. */
const FIELDS: readonly (keyof MailingFormValues)[] = [
  'name',
  'company_id',
  'recipients',
  'modules',
  'statuses',
  'priorities',
  'sources',
  'tags',
  'assignee',
  'text',
  'transitions',
  'frequency',
  'hour',
  'weekday',
  'quiet',
  'format',
  'max_events',
  'is_active',
];

/**
 * State and actions of the mailing editor: the values it starts with (following the header's
 * company until the user edits), who may change it, save, delete and the preview's filters.
 */
export function useMailingEditor(mailing: Mailing | undefined, filters: MailingFilterOptions) {
  const navigate = useNavigate();
  const { message, modal } = feedback;
  const headerCompany = useCompanyFilter();
  const [form] = Form.useForm<MailingFormValues>();
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
  const create = useCreateMailingMutation();
  const update = useUpdateMailingMutation(mailing?.id ?? 0);
  const remove = useDeleteMailingMutation();

  // The preview follows the company and filters as they are edited.
  const watched = Form.useWatch([], form) as MailingFormValues | undefined;
  const previewBody = useMemo(() => filtersBody(watched ?? initial), [watched, initial]);

  const [saving, setSaving] = useState(false);
  const submit = async (v: MailingFormValues) => {
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
      applyApiErrors(form, e, FIELDS, formField);
      message.error(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  const onDelete = (m: Mailing) =>
    modal.confirm({
      title: 'Удалить рассылку?',
      content: 'Письма по ней больше не будут отправляться. История отправок удалится вместе с ней.',
      okText: 'Удалить',
      okButtonProps: { danger: true },
      cancelText: 'Отмена',
      onOk: () =>
        remove.mutateAsync(m.id).then(() => {
          message.success('Рассылка удалена');
          void navigate({ to: '/notifications' });
        }),
    });

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

  return { form, initial, canManage, saving, submit, onDelete, previewBody };
}

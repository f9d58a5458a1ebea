import { Alert, type ButtonProps, Form, type FormInstance, type FormProps, Modal } from 'antd';
import { type ReactNode, useCallback, useId, useState } from 'react';
import { applyApiErrors } from './forms';

/**
 * State of a create/edit modal with an antd form: the form, the error shown above it and
 * the two steps every such modal has — refill the fields when it opens, and submit
 * (validate, save, and put the API's field errors back on the form).
 */
export function useFormModal<V extends object>() {
  const [form] = Form.useForm<V>();
  const [formError, setFormError] = useState<string | null>(null);

  /** Clears the form and its error, then fills in the values of the item being edited (or the defaults). */
  const reset = useCallback(
    (values: Partial<V>) => {
      setFormError(null);
      form.resetFields();
      form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
    },
    [form],
  );

  /**
   * Validates, then runs `save` with the values; a failure of `save` lands on the fields named
   * in `fields` (`rename` maps API keys to form names) or above the form.
   */
  const submit = async (
    save: (values: V) => Promise<void>,
    fields: readonly string[],
    rename?: (apiKey: string) => string | (string | number)[],
  ) => {
    setFormError(null);
    let v: V;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await save(v);
    } catch (e) {
      setFormError(applyApiErrors(form, e, fields, rename));
    }
  };

  return { form, formError, reset, submit };
}

/**
 * A name for a form in a modal kept rendered while hidden: antd gives each field the id
 * `<form name>_<field>` (just `<field>` without a name), so two hidden forms with a «comment» field
 * would share an id and a label's `for` could point into the other modal.
 */
function useFormName(): string {
  return `form${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
}

/**
 * A key for a modal kept rendered while hidden (`forceRender`) that changes each time it opens.
 * The OK button's loading spinner leaves with a CSS transition; when the modal closes in the same
 * render as the save ends, the hidden modal never ends that transition and the reopened button
 * still carries the spinner («loading Добавить» to a screen reader). A new key on open builds the
 * modal afresh; the close keeps its animation.
 */
function useOpenKey(open: boolean): number {
  const [key, setKey] = useState(0);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setKey((k) => k + 1);
  }
  return key;
}

/**
 * The modal around such a form: «Добавить» for a new item, «Сохранить» for an existing one (or
 * `okText`); required fields marked «optional»-style unless `formProps.requiredMark` says otherwise.
 */
export function FormModal<V extends object>({
  open,
  title,
  isNew,
  saving,
  width,
  form,
  formError,
  formProps,
  okText,
  okButtonProps,
  onOk,
  onClose,
  children,
}: {
  open: boolean;
  title: ReactNode;
  isNew: boolean;
  saving: boolean;
  width: number;
  form: FormInstance<V>;
  formError: string | null;
  formProps?: Omit<FormProps<V>, 'form' | 'layout'>;
  okText?: string;
  okButtonProps?: ButtonProps;
  onOk: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const openKey = useOpenKey(open);
  const name = useFormName();
  return (
    <Modal
      key={openKey}
      open={open}
      title={title}
      okText={okText ?? (isNew ? 'Добавить' : 'Сохранить')}
      okButtonProps={okButtonProps}
      cancelText="Отмена"
      onOk={onOk}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      forceRender
      width={width}
    >
      <Form<V> form={form} name={name} layout="vertical" requiredMark="optional" {...formProps}>
        {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
        {children}
      </Form>
    </Modal>
  );
}

import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { feedback } from '../../lib/feedback';
import { FormModal, useFormModal } from './FormModal';
import { NameField } from './NameField';

/** Create / rename an entry of a name-only reference list. */
export function NameModal({
  open,
  title,
  initial,
  schema,
  maxLength,
  placeholder,
  onSubmit,
  onClose,
  successText,
}: {
  open: boolean;
  title: string;
  initial?: string;
  schema: z.ZodType;
  maxLength: number;
  placeholder?: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
  successText: string;
}) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<{ name: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) reset({ name: initial ?? '' });
  }, [open, initial, reset]);

  const onOk = () =>
    submit(
      async (v) => {
        setSaving(true);
        try {
          await onSubmit(v.name.trim());
        } finally {
          setSaving(false);
        }
        message.success(successText);
        onClose();
      },
      ['name'],
    );

  return (
    <FormModal<{ name: string }>
      open={open}
      title={title}
      isNew={initial === undefined}
      saving={saving}
      width={520}
      form={form}
      formError={formError}
      formProps={{ requiredMark: false, onFinish: () => void onOk() }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <NameField schema={schema} maxLength={maxLength} placeholder={placeholder} />
    </FormModal>
  );
}

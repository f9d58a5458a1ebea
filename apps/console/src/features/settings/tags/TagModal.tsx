import { TAG_COLORS, tagCreateRequest } from '@forpost/contract/tags';
import { Tag as AntTag, ColorPicker, Flex, Form } from 'antd';
import { useEffect } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { NameField } from '../../../components/form/NameField';
import { feedback } from '../../../lib/feedback';
import { useSaveTagMutation } from '../api/mutations';
import type { Tag } from '../api/queries';

interface Values {
  name: string;
  color: string;
}

const nameSchema = tagCreateRequest.shape.name;
const toHex = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : c && typeof c === 'object' && 'toHexString' in c
      ? (c as { toHexString: () => string }).toHexString()
      : TAG_COLORS[0];

/** Create (tag = null) or edit a tag: name and colour. */
export function TagModal({ tag, open, onClose }: { tag: Tag | null; open: boolean; onClose: () => void }) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const save = useSaveTagMutation();
  const name = Form.useWatch('name', form);
  const color = Form.useWatch('color', form);

  useEffect(() => {
    if (!open) return;
    reset({ name: tag?.name ?? '', color: tag?.color ?? TAG_COLORS[0] });
  }, [open, tag, reset]);

  const onOk = () =>
    submit(
      async (v) => {
        await save.mutateAsync({ id: tag?.id, body: { name: v.name.trim(), color: toHex(v.color).toLowerCase() } });
        message.success(tag ? 'Тег сохранён' : 'Тег добавлен');
        onClose();
      },
      ['name', 'color'],
    );

  return (
    <FormModal<Values>
      open={open}
      title={tag ? `Тег «${tag.name}»` : 'Новый тег'}
      isNew={!tag}
      saving={save.isPending}
      width={520}
      form={form}
      formError={formError}
      formProps={{ requiredMark: false, onFinish: () => void onOk() }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <NameField schema={nameSchema} maxLength={64} placeholder="Например: Фишинг" />
      <Form.Item name="color" label="Цвет" getValueFromEvent={(c: unknown) => toHex(c)}>
        <ColorPicker
          disabledAlpha
          format="hex"
          showText
          presets={[{ label: 'Рекомендуемые', colors: [...TAG_COLORS] }]}
          aria-label="Цвет тега"
        />
      </Form.Item>
      <Flex gap={8} align="center">
        <span style={{ color: 'rgba(0,0,0,.45)' }}>Так тег выглядит в событиях:</span>
        <AntTag color={toHex(color)}>{name?.trim() || 'Тег'}</AntTag>
      </Flex>
    </FormModal>
  );
}

import { ArrowRightOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { Alert, Flex, Form, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { ColorTag } from '../../../components/ColorTag';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { feedback } from '../../../lib/feedback';
import { eventsCount } from '../../../lib/format';
import { useMergeTagMutation } from '../api/mutations';
import type { Tag } from '../api/queries';

interface Values {
  source?: number;
  target?: number;
}

/** Merge: every event with the source tag gets the target tag; the source tag is deleted. */
export function MergeTagsModal({
  open,
  sourceId,
  tags,
  countOf,
  onClose,
}: {
  open: boolean;
  sourceId?: number;
  tags: readonly Tag[];
  countOf: (id: number) => number;
  onClose: () => void;
}) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const merge = useMergeTagMutation();
  const source = Form.useWatch('source', form);
  const target = Form.useWatch('target', form);

  useEffect(() => {
    if (open) reset({ source: sourceId, target: undefined });
  }, [open, sourceId, reset]);

  const byId = (id?: number) => tags.find((t) => t.id === id);
  const options = (except?: number) =>
    tags
      .filter((t) => t.id !== except)
      .map((t) => ({
        value: t.id,
        label: (
          <Flex justify="space-between" gap={8}>
            <span>
              <span
                style={{
                  display: 'inline-block',
                  width: 10,
                  height: 10,
                  borderRadius: 3,
                  background: t.color,
                  marginInlineEnd: 8,
                }}
              />
              {t.name}
            </span>
            <Typography.Text type="secondary">{countOf(t.id)}</Typography.Text>
          </Flex>
        ),
        name: t.name,
      }));

  const onOk = () =>
    submit(async (v) => {
      if (v.source === undefined || v.target === undefined) return;
      const r = await merge.mutateAsync({ sourceId: v.source, targetId: v.target });
      message.success(
        r.events_updated > 0
          ? `Теги объединены, обновлено: ${eventsCount(r.events_updated)}`
          : `Теги объединены: остался «${r.target.name}»`,
      );
      onClose();
    }, []);

  /** One of the two tag choices; the tag chosen in the other is not offered. */
  const tagField = (name: 'source' | 'target', label: string, placeholder: string, except?: number) => (
    <Form.Item name={name} label={label} rules={[{ required: true, message: MSG.required }]} style={{ flex: 1 }}>
      <Select
        showSearch={{ optionFilterProp: 'name' }}
        placeholder={placeholder}
        options={options(except)}
        data-testid={`merge-${name}`}
      />
    </Form.Item>
  );

  const src = byId(source);
  const dst = byId(target);
  return (
    <FormModal<Values>
      open={open}
      title="Объединить теги"
      isNew={false}
      okText="Объединить"
      okButtonProps={{ danger: true, disabled: !src || !dst }}
      saving={merge.isPending}
      width={560}
      form={form}
      formError={formError}
      formProps={{ requiredMark: false }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <Flex gap={12} align="start">
        {tagField('source', 'Какой тег убрать', 'Исходный тег', target)}
        <ArrowRightOutlined style={{ marginTop: 38, color: 'rgba(0,0,0,.45)' }} />
        {tagField('target', 'В какой тег объединить', 'Целевой тег', source)}
      </Flex>
      {src && dst && (
        <Alert
          type="warning"
          showIcon
          title={
            <span>
              Тег <ColorTag color={src.color}>{src.name}</ColorTag>будет удалён, а события с ним
              {countOf(src.id) > 0 ? ` (${eventsCount(countOf(src.id))})` : ''} получат тег{' '}
              <ColorTag color={dst.color}>{dst.name}</ColorTag>
            </span>
          }
          description="Объединение нельзя отменить."
        />
      )}
    </FormModal>
  );
}

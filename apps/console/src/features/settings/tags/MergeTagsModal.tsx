import { ArrowRightOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { Alert, Tag as AntTag, App, Flex, Form, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { eventsCount } from '../../../lib/format';
import { errorMessage } from '../../../lib/http';
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
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const merge = useMergeTagMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const source = Form.useWatch('source', form);
  const target = Form.useWatch('target', form);

  useEffect(() => {
    if (!open) return;
    setFormError(null);
    form.resetFields();
    form.setFieldsValue({ source: sourceId, target: undefined });
  }, [open, sourceId, form]);

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

  const onOk = async () => {
    setFormError(null);
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (v.source === undefined || v.target === undefined) return;
    try {
      const r = await merge.mutateAsync({ sourceId: v.source, targetId: v.target });
      message.success(
        r.events_updated > 0
          ? `Теги объединены, обновлено: ${eventsCount(r.events_updated)}`
          : `Теги объединены: остался «${r.target.name}»`,
      );
      onClose();
    } catch (e) {
      setFormError(errorMessage(e));
    }
  };

  const src = byId(source);
  const dst = byId(target);
  return (
    <Modal
      open={open}
      title="Объединить теги"
      okText="Объединить"
      okButtonProps={{ danger: true, disabled: !src || !dst }}
      cancelText="Отмена"
      onOk={() => void onOk()}
      confirmLoading={merge.isPending}
      onCancel={onClose}
      destroyOnHidden
      forceRender
      width={560}
    >
      <Form<Values> form={form} layout="vertical" requiredMark={false}>
        {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
        <Flex gap={12} align="start">
          <Form.Item
            name="source"
            label="Какой тег убрать"
            rules={[{ required: true, message: MSG.required }]}
            style={{ flex: 1 }}
          >
            <Select
              showSearch={{ optionFilterProp: 'name' }}
              placeholder="Исходный тег"
              options={options(target)}
              data-testid="merge-source"
            />
          </Form.Item>
          <ArrowRightOutlined style={{ marginTop: 38, color: 'rgba(0,0,0,.45)' }} />
          <Form.Item
            name="target"
            label="В какой тег объединить"
            rules={[{ required: true, message: MSG.required }]}
            style={{ flex: 1 }}
          >
            <Select
              showSearch={{ optionFilterProp: 'name' }}
              placeholder="Целевой тег"
              options={options(source)}
              data-testid="merge-target"
            />
          </Form.Item>
        </Flex>
        {src && dst && (
          <Alert
            type="warning"
            showIcon
            title={
              <span>
                Тег <AntTag color={src.color}>{src.name}</AntTag>будет удалён, а события с ним
                {countOf(src.id) > 0 ? ` (${eventsCount(countOf(src.id))})` : ''} получат тег{' '}
                <AntTag color={dst.color}>{dst.name}</AntTag>
              </span>
            }
            description="Объединение нельзя отменить."
          />
        )}
      </Form>
    </Modal>
  );
}

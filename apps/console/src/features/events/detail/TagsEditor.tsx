/* Tags of an event: remove, attach an existing one, or create a new one with a colour (settings.manage). */
import { CheckOutlined, PlusOutlined } from '@ant-design/icons';
import { TAG_COLORS } from '@forpost/contract/tags';
import { Button, Flex, Input, Popover, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { ColorTag } from '../../../components/ColorTag';
import { feedback } from '../../../lib/feedback';
import { useCan } from '../../auth/useMe';
import { type EventPatch, useCreateTag } from '../api/mutations';
import type { EventDetail, TagItem } from '../model/types';

function NewTagForm({ onCreated }: { onCreated: (tag: TagItem) => void }) {
  const create = useCreateTag();
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>(TAG_COLORS[0]);
  const submit = () => {
    if (!name.trim()) return;
    create.mutate(
      { name: name.trim(), color },
      {
        onSuccess: (tag) => {
          setName('');
          onCreated(tag);
        },
      },
    );
  };
  return (
    <Flex vertical gap={8} style={{ width: 260 }} data-testid="new-tag-form">
      <Input
        autoFocus
        placeholder="Название тега"
        value={name}
        maxLength={64}
        onChange={(e) => setName(e.target.value)}
        onPressEnter={submit}
        aria-label="Название тега"
      />
      <Space size={6} wrap aria-label="Цвет тега">
        {TAG_COLORS.map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={c === color}
            aria-label={`Цвет ${c}`}
            onClick={() => setColor(c)}
            style={{
              width: 22,
              height: 22,
              borderRadius: 4,
              border: c === color ? '2px solid #000' : '1px solid rgba(0,0,0,.1)',
              background: c,
              cursor: 'pointer',
              color: '#fff',
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
              padding: 0,
            }}
          >
            {c === color && <CheckOutlined style={{ fontSize: 11 }} />}
          </button>
        ))}
      </Space>
      <Flex justify="space-between" align="center">
        <ColorTag color={color}>{name.trim() || 'Пример'}</ColorTag>
        <Button type="primary" size="small" onClick={submit} loading={create.isPending} disabled={!name.trim()}>
          Создать
        </Button>
      </Flex>
    </Flex>
  );
}

export function TagsEditor({
  event,
  tags,
  canWrite,
  onPatch,
}: {
  event: EventDetail;
  tags: readonly TagItem[];
  canWrite: boolean;
  onPatch: (patch: EventPatch) => void;
}) {
  const { message } = feedback;
  const canCreate = useCan('settings.manage');
  const [creating, setCreating] = useState(false);
  const attached = new Set(event.tags);
  const free = tags.filter((t) => !attached.has(t.id));

  return (
    <Flex vertical gap={8} style={{ width: '100%' }} data-testid="event-tags">
      <Flex gap={4} wrap>
        {event.tags.length === 0 && <Typography.Text type="secondary">Нет тегов</Typography.Text>}
        {event.tags.map((id) => {
          const t = tags.find((x) => x.id === id);
          return (
            <ColorTag
              key={id}
              color={t?.color}
              closable={canWrite}
              onClose={(e) => {
                e.preventDefault();
                onPatch({ tags_remove: [id] });
              }}
              style={{ marginInlineEnd: 0 }}
            >
              {t?.name ?? `#${id}`}
            </ColorTag>
          );
        })}
      </Flex>
      {canWrite && (
        <Flex gap={6}>
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Добавить тег"
            value={null as unknown as number}
            options={free.map((t) => ({ value: t.id, label: t.name }))}
            optionRender={(o) => {
              const t = free.find((x) => x.id === o.value);
              return <ColorTag color={t?.color}>{String(o.label)}</ColorTag>;
            }}
            onChange={(id) => onPatch({ tags_add: [id] })}
            notFoundContent="Нет тегов"
            style={{ flex: 1, minWidth: 0 }}
            aria-label="Добавить тег"
            data-testid="tag-add"
          />
          {canCreate && (
            <Popover
              trigger="click"
              open={creating}
              onOpenChange={setCreating}
              title="Новый тег"
              content={
                <NewTagForm
                  onCreated={(tag) => {
                    setCreating(false);
                    message.success(`Тег «${tag.name}» создан`);
                    onPatch({ tags_add: [tag.id] });
                  }}
                />
              }
            >
              <Button icon={<PlusOutlined />} aria-label="Создать тег" title="Создать тег" />
            </Popover>
          )}
        </Flex>
      )}
    </Flex>
  );
}

/* «Колонки»: which columns a module's list shows and in what order, remembered per user on the server. */
import { ArrowDownOutlined, ArrowUpOutlined, SettingOutlined } from '@ant-design/icons';
import type { ModuleDescriptor } from '@forpost/contract/modules';
import { columnsPrefKey, listColumnsOf, pinnedColumnsOf } from '@forpost/contract/views';
import { Button, Checkbox, Flex, Popover, Typography } from 'antd';
import { useState } from 'react';
import { usePutPreference } from './api';

export function ColumnChooser({ m, visible }: { m: ModuleDescriptor; visible: readonly string[] }) {
  const put = usePutPreference();
  const [open, setOpen] = useState(false);
  const pinned = new Set(pinnedColumnsOf(m));
  const all = listColumnsOf(m);
  // Shown columns in their order, then the hidden ones in the module's order.
  const ordered = [...visible.flatMap((k) => all.filter((c) => c.key === k)), ...all.filter((c) => !visible.includes(c.key))];
  const save = (keys: string[]) => put.mutate({ key: columnsPrefKey(m.code), value: keys });
  const toggle = (key: string, on: boolean) =>
    save(on ? ordered.map((c) => c.key).filter((k) => k === key || visible.includes(k)) : visible.filter((k) => k !== key));
  const move = (key: string, by: -1 | 1) => {
    const keys = [...visible];
    const i = keys.indexOf(key);
    const j = i + by;
    if (i < 0 || j < 0 || j >= keys.length) return;
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
    save(keys);
  };

  const content = (
    <Flex vertical gap={2} style={{ width: 300, maxHeight: 420, overflowY: 'auto' }} data-testid="column-chooser">
      <Typography.Text type="secondary" style={{ fontSize: 12, marginBottom: 4 }}>
        Название и колонки разбора (статус, приоритет, решение, исполнитель, теги) видны всегда.
      </Typography.Text>
      {ordered.map((c) => {
        const shown = visible.includes(c.key);
        const i = visible.indexOf(c.key);
        return (
          <Flex key={c.key} align="center" justify="space-between" gap={4}>
            <Checkbox
              checked={shown}
              disabled={pinned.has(c.key)}
              onChange={(e) => toggle(c.key, e.target.checked)}
              data-testid={`column-${c.key}`}
            >
              {c.label}
            </Checkbox>
            {shown && (
              <Flex gap={0}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  aria-label={`${c.label}: выше`}
                  disabled={i <= 0}
                  onClick={() => move(c.key, -1)}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  aria-label={`${c.label}: ниже`}
                  disabled={i >= visible.length - 1}
                  onClick={() => move(c.key, 1)}
                />
              </Flex>
            )}
          </Flex>
        );
      })}
      <Button
        size="small"
        style={{ alignSelf: 'flex-start', marginTop: 8 }}
        onClick={() => put.mutate({ key: columnsPrefKey(m.code), value: null })}
        data-testid="columns-reset"
      >
        Сбросить
      </Button>
    </Flex>
  );

  return (
    <Popover content={content} title="Колонки" trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight">
      <Button icon={<SettingOutlined />} data-testid="columns-open">
        Колонки
      </Button>
    </Popover>
  );
}

import { CheckCircleFilled, MinusCircleOutlined, UndoOutlined } from '@ant-design/icons';
import { CONFIG_GROUP_LABELS, CONFIG_GROUPS, type ConfigItem, isConfigKey, validateConfigValue } from '@forpost/contract/configs';
import { MSG } from '@forpost/contract/messages';
import { Button, Card, Flex, Form, Input, InputNumber, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { apiFieldErrors } from '../../../components/form/forms';
import { PageHeading } from '../../../components/page/PageHeading';
import { EmptyState, LoadError, LoadingCard } from '../../../components/page/QueryState';
import { feedback } from '../../../lib/feedback';
import { formatDateTime } from '../../../lib/format';
import { errorMessage } from '../../../lib/http';
import { useResetConfigMutation, useSaveConfigMutation } from '../api/mutations';
import { useConfigsQuery } from '../api/queries';

type Value = string | number | boolean | null;

/** /settings/configs (SUPER_ADMIN): the registry's settings by group, each saved on its own. */
export function ConfigsPage() {
  const list = useConfigsQuery();
  const groups = useMemo(() => {
    const items = list.data?.items ?? [];
    return CONFIG_GROUPS.map((g) => ({
      key: g,
      label: CONFIG_GROUP_LABELS[g],
      items: items.filter((c) => c.group === g),
    })).filter((g) => g.items.length > 0);
  }, [list.data]);

  return (
    <>
      <PageHeading
        title="Конфигурация"
        subtitle="Системные настройки действуют на всех экземплярах сервера сразу после сохранения, без перезапуска"
      />
      {list.isPending ? (
        <LoadingCard rows={10} />
      ) : list.isError ? (
        <Card>
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        </Card>
      ) : groups.length === 0 ? (
        <Card>
          <EmptyState text="Настроек нет" />
        </Card>
      ) : (
        <Flex vertical gap={16}>
          {groups.map((g) => (
            <Card key={g.key} title={g.label} data-testid={`config-group-${g.key}`} styles={{ body: { paddingBlock: 8 } }}>
              {g.items.map((c, i) => (
                <ConfigRow key={c.key} item={c} last={i === g.items.length - 1} />
              ))}
            </Card>
          ))}
        </Flex>
      )}
    </>
  );
}

const shown = (v: Value, unit: string | null) => {
  if (v === null || v === '') return 'не задано';
  if (typeof v === 'boolean') return v ? 'включено' : 'выключено';
  return unit ? `${v} ${unit}` : String(v);
};

function ConfigRow({ item, last }: { item: ConfigItem; last: boolean }) {
  const { message } = feedback;
  const save = useSaveConfigMutation();
  const reset = useResetConfigMutation();
  const secret = item.is_secret;
  const [draft, setDraft] = useState<Value>(secret ? '' : item.value);
  const [error, setError] = useState<string | null>(null);
  // A new value from the server (saved here or elsewhere) replaces the draft; a secret's field is emptied.
  // biome-ignore lint/correctness/useExhaustiveDependencies: updated_at / has_value mark a new server value even when `value` is the same
  useEffect(() => {
    setDraft(secret ? '' : item.value);
    setError(null);
  }, [item.value, item.updated_at, item.has_value, secret]);

  const dirty = secret ? typeof draft === 'string' && draft !== '' : draft !== item.value;

  const onSave = async () => {
    setError(null);
    let value: Value = typeof draft === 'string' ? draft.trim() : draft;
    if (item.type === 'integer' && value === null) {
      setError(MSG.required);
      return;
    }
    if (isConfigKey(item.key)) {
      const r = validateConfigValue(item.key, value);
      if (!r.ok) {
        setError(r.message);
        return;
      }
      value = r.value as Value;
    }
    try {
      await save.mutateAsync({ key: item.key, value });
      if (secret) setDraft('');
      message.success(secret ? `«${item.title}»: новое значение сохранено` : `«${item.title}»: сохранено`);
    } catch (e) {
      setError(apiFieldErrors(e).value ?? errorMessage(e));
    }
  };

  const onReset = async () => {
    await reset.mutateAsync(item.key);
    message.success(secret ? `«${item.title}»: значение удалено` : `«${item.title}»: восстановлено значение по умолчанию`);
  };

  return (
    <Flex
      gap={24}
      wrap
      data-testid={`config-${item.key}`}
      style={{ paddingBlock: 16, borderBottom: last ? undefined : '1px solid rgba(5, 5, 5, 0.06)' }}
    >
      <div style={{ flex: '1 1 360px', minWidth: 0 }}>
        <Flex align="center" gap={8} wrap>
          <Typography.Text strong>{item.title}</Typography.Text>
          {secret &&
            (item.has_value ? (
              <Tag color="green" icon={<CheckCircleFilled />} data-testid="secret-state">
                задано
              </Tag>
            ) : (
              <Tag icon={<MinusCircleOutlined />} data-testid="secret-state">
                не задано
              </Tag>
            ))}
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
          {item.description}
        </Typography.Paragraph>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {!secret && <>По умолчанию: {shown(item.default, item.unit)}</>}
          {!secret && item.min !== null && item.max !== null && (
            <>
              {' · '}допустимо от {item.min} до {item.max}
            </>
          )}
          {item.updated_at && (
            <>
              {!secret && ' · '}Изменено {formatDateTime(item.updated_at)}
              {item.updated_by ? `, ${item.updated_by.name}` : ''}
            </>
          )}
        </Typography.Text>
      </div>
      <Form layout="vertical" style={{ flex: '0 1 460px', minWidth: 300 }} onFinish={() => void onSave()}>
        <Form.Item
          style={{ marginBottom: 0 }}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          label={secret ? (item.has_value ? 'Заменить значение' : 'Задать значение') : undefined}
        >
          <Flex gap={8} align="start">
            <div style={{ flex: 1, minWidth: 0 }}>
              <ValueInput
                item={item}
                value={draft}
                onChange={(v) => {
                  setDraft(v);
                  setError(null);
                }}
              />
            </div>
            <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!dirty} data-testid="config-save">
              Сохранить
            </Button>
          </Flex>
        </Form.Item>
        {item.has_value && (
          <Popconfirm
            title={secret ? 'Удалить сохранённое значение?' : 'Вернуть значение по умолчанию?'}
            okText={secret ? 'Удалить' : 'Сбросить'}
            cancelText="Отмена"
            onConfirm={onReset}
          >
            <Button type="link" size="small" icon={<UndoOutlined />} style={{ paddingInline: 0, marginTop: 4 }}>
              {secret ? 'Удалить значение' : 'Сбросить по умолчанию'}
            </Button>
          </Popconfirm>
        )}
      </Form>
    </Flex>
  );
}

function ValueInput({ item, value, onChange }: { item: ConfigItem; value: Value; onChange: (v: Value) => void }) {
  const label = item.title;
  if (item.is_secret) {
    return (
      <Input.Password
        aria-label={label}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
        placeholder={item.has_value ? 'Новое значение (текущее не показывается)' : 'Значение'}
        autoComplete="new-password"
        visibilityToggle
      />
    );
  }
  if (item.type === 'integer') {
    const input = (
      <InputNumber<number>
        aria-label={label}
        style={{ width: '100%' }}
        value={typeof value === 'number' ? value : null}
        onChange={(v) => onChange(v ?? null)}
        min={item.min ?? undefined}
        max={item.max ?? undefined}
        precision={0}
      />
    );
    return item.unit ? (
      <Space.Compact style={{ width: '100%' }}>
        {input}
        <Space.Addon>{item.unit}</Space.Addon>
      </Space.Compact>
    ) : (
      input
    );
  }
  if (typeof item.default === 'boolean' || typeof item.value === 'boolean') {
    return <Switch aria-label={label} checked={value === true} onChange={(v) => onChange(v)} />;
  }
  const placeholder =
    item.type === 'url'
      ? 'https://…'
      : item.type === 'email'
        ? 'name@example.ru'
        : item.default
          ? String(item.default)
          : 'Не задано';
  return (
    <Input
      aria-label={label}
      value={typeof value === 'string' ? value : value === null ? '' : String(value)}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      type={item.type === 'email' ? 'email' : 'text'}
      allowClear
    />
  );
}

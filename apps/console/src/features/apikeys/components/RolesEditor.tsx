import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { Button, Flex, Form, Radio, Select, Tag, Typography } from 'antd';
import { useModuleOptions } from '../../companies/api/queries';
import type { ApiKey } from '../api/queries';

export type KeyRole = ApiKey['roles'][number];
const ALL_MODULES = '*';
/** Per-module access rows of an API key (Form.List `roles`); '*' = every module. */
export function RolesEditor({ name = 'roles', disabled }: { name?: string; disabled?: boolean }) {
  const modules = useModuleOptions();
  const options = [{ value: ALL_MODULES, label: 'Все модули' }, ...modules.options];
  return (
    <Form.List
      name={name}
      rules={[
        {
          validator: async (_, rows: Partial<KeyRole>[] | undefined) => {
            const codes = (rows ?? []).map((r) => r?.module).filter(Boolean);
            if (new Set(codes).size !== codes.length) throw new Error('Модуль указан дважды');
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <Flex vertical gap={8}>
          {fields.length === 0 && <Typography.Text type="secondary">Ролей нет: ключ не даёт доступа к событиям.</Typography.Text>}
          {fields.map((f) => (
            <Flex key={f.key} gap={8} align="start">
              <Form.Item
                name={[f.name, 'module']}
                rules={[{ required: true, message: MSG.required }]}
                style={{ flex: 1, marginBottom: 0 }}
              >
                <Select options={options} showSearch={{ optionFilterProp: 'label' }} placeholder="Модуль" aria-label="Модуль" />
              </Form.Item>
              <Form.Item name={[f.name, 'access']} style={{ marginBottom: 0 }}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'read', label: 'Чтение' },
                    { value: 'write', label: 'Запись' },
                  ]}
                />
              </Form.Item>
              {!disabled && (
                <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label="Убрать роль" />
              )}
            </Flex>
          ))}
          <Form.ErrorList errors={errors} />
          {!disabled && (
            <div>
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ module: fields.length === 0 ? ALL_MODULES : undefined, access: 'read' })}
              >
                Добавить роль
              </Button>
            </div>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            «Запись» разрешает создавать и импортировать события. Ключ никогда не получает больше прав, чем у его владельца.
          </Typography.Text>
        </Flex>
      )}
    </Form.List>
  );
}

/** Compact view of a key's roles for tables. */
export function RolesSummary({ roles, collector }: { roles: KeyRole[]; collector: boolean }) {
  const modules = useModuleOptions();
  if (!roles.length && !collector) return <Typography.Text type="secondary">Нет ролей</Typography.Text>;
  return (
    <Flex gap={4} wrap>
      {roles.map((r) => (
        <Tag key={r.module} color={r.access === 'write' ? 'blue' : undefined}>
          {r.module === ALL_MODULES ? 'Все модули' : modules.nameOf(r.module)}: {r.access === 'write' ? 'запись' : 'чтение'}
        </Tag>
      ))}
      {collector && <Tag color="purple">Сборщик сообщений</Tag>}
    </Flex>
  );
}

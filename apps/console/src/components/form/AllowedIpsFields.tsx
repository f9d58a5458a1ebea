import { PlusOutlined } from '@ant-design/icons';
import { normalizeIpEntry, validateAllowedIpEntry } from '@forpost/contract/validation';
import { Button, Flex, Form, Input, Space, Tag, Typography } from 'antd';
import type { KeyboardEvent } from 'react';

/** The chosen addresses as closable tags (a Form.Item control: value/onChange). */
function IpTags({ value = [], onChange, disabled }: { value?: string[]; onChange?: (v: string[]) => void; disabled?: boolean }) {
  if (value.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid="allowed-ips-empty">
        Ограничений нет: вход разрешён с любого адреса
      </Typography.Text>
    );
  }
  return (
    <Flex gap={6} wrap data-testid="allowed-ips-list">
      {value.map((ip) => (
        <Tag
          key={ip}
          closable={!disabled}
          onClose={(e) => {
            e.preventDefault();
            onChange?.(value.filter((x) => x !== ip));
          }}
          style={{ fontFamily: 'monospace', fontSize: 13, paddingBlock: 2, marginInlineEnd: 0 }}
        >
          {ip}
        </Tag>
      ))}
    </Flex>
  );
}

/**
 * The list to save: the chosen addresses plus the one typed but not added yet (it passed the
 * on-blur check), unless it is invalid or already there.
 */
export function withStashedIp(values: { allowed_ips?: string[]; allowed_ips_stash?: string }): string[] {
  const ips = values.allowed_ips ?? [];
  const stash = normalizeIpEntry(values.allowed_ips_stash ?? '');
  return stash && !validateAllowedIpEntry(stash, ips) ? [...ips, stash] : ips;
}

export interface AllowedIpsFieldsProps {
  /** Form field of the list (string[]). */
  name?: string;
  /** Form field of the entry being added (spec: allowed_ips_stash). */
  stashName?: string;
  label?: string;
  extra?: string;
  disabled?: boolean;
}

/**
 * The allowed IP list of a form plus an input to add one (IPv4, IPv6, CIDR). The entry is checked
 * on blur with the contract's `validateAllowedIpEntry`: 'Некорректный IP или CIDR', 'IP уже добавлен'.
 * Must be rendered inside an antd Form.
 */
export function AllowedIpsFields({
  name = 'allowed_ips',
  stashName = 'allowed_ips_stash',
  label = 'Разрешённые IP-адреса',
  extra = 'Если список не пуст, вход возможен только с этих адресов и подсетей (CIDR).',
  disabled,
}: AllowedIpsFieldsProps) {
  const form = Form.useFormInstance();

  const add = async () => {
    try {
      await form.validateFields([stashName]);
    } catch {
      return;
    }
    const entry = normalizeIpEntry(String(form.getFieldValue(stashName) ?? ''));
    if (!entry) return;
    const list: string[] = form.getFieldValue(name) ?? [];
    form.setFieldValue(name, [...list, entry]);
    form.setFieldValue(stashName, '');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void add();
    }
  };

  return (
    <>
      <Form.Item name={name} label={label} extra={extra} style={{ marginBottom: 12 }}>
        <IpTags disabled={disabled} />
      </Form.Item>
      <Form.Item label="Добавить адрес" required={false} style={{ marginBottom: 0 }}>
        <Space.Compact style={{ width: '100%', maxWidth: 420 }}>
          <Form.Item
            name={stashName}
            noStyle
            validateTrigger="onBlur"
            rules={[
              {
                validator: (_, value: unknown) => {
                  const err = validateAllowedIpEntry(String(value ?? ''), form.getFieldValue(name) ?? []);
                  return err ? Promise.reject(new Error(err)) : Promise.resolve();
                },
              },
            ]}
          >
            <Input
              placeholder="192.168.0.10, 10.0.0.0/8 или 2001:db8::/32"
              onKeyDown={onKeyDown}
              disabled={disabled}
              aria-label="Новый IP-адрес или подсеть"
              data-testid="allowed-ips-input"
            />
          </Form.Item>
          <Button icon={<PlusOutlined />} onClick={() => void add()} disabled={disabled} data-testid="allowed-ips-add">
            Добавить
          </Button>
        </Space.Compact>
      </Form.Item>
      {/* The entry's error message is rendered by the inner Form.Item under the compact group. */}
    </>
  );
}

import { createApiKeyRequest } from '@forpost/contract/apikeys';
import { MSG } from '@forpost/contract/messages';
import { companiesWith, isStaff } from '@forpost/contract/permissions';
import { Alert, Checkbox, Divider, Form, Input, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { AllowedIpsFields, withStashedIp } from '../../../components/form/AllowedIpsFields';
import { ExpiryPicker, expiryIso } from '../../../components/form/ExpiryPicker';
import { useCheckedSave } from '../../../components/form/useCheckedSave';
import { requiredRule } from '../../auth/components/shared';
import { useMe, usePrincipal } from '../../auth/useMe';
import { useCompanyOptions } from '../../companies/api/queries';
import { useCompanyFilter } from '../../company/useCompanyId';
import { useCreateApiKeyMutation } from '../api/mutations';
import type { ApiKeyWithSecret } from '../api/queries';
import { type KeyRole, RolesEditor } from './RolesEditor';

interface CreateValues {
  name: string;
  company_id?: number;
  roles: Partial<KeyRole>[];
  collector: boolean;
  expires_at?: Dayjs | null;
  allowed_ips: string[];
  allowed_ips_stash?: string;
}

/** Companies where the signed-in user may issue keys, as select options. */
function useKeyCompanyOptions() {
  const principal = usePrincipal();
  const me = useMe();
  const companies = useCompanyOptions();
  return useMemo(() => {
    const scope = companiesWith(principal, 'apikeys.manage');
    if (scope === 'all') return companies.items.filter((c) => c.is_active).map((c) => ({ value: c.id, label: c.name }));
    return me.companies.filter((c) => scope.includes(c.id)).map((c) => ({ value: c.id, label: c.name }));
  }, [principal, me.companies, companies.items]);
}

/** «Новый API-ключ»: name, company, roles, collector (staff), expiry, allowed IPs. */
export function CreateApiKeyModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (k: ApiKeyWithSecret) => void;
}) {
  const me = useMe();
  const [form] = Form.useForm<CreateValues>();
  const create = useCreateApiKeyMutation();
  const companyOptions = useKeyCompanyOptions();
  const selected = useCompanyFilter();
  const save = useCheckedSave('Выпуск API-ключа не удался');
  const defaultCompany =
    companyOptions.find((c) => c.value === selected)?.value ??
    (companyOptions.length === 1 ? companyOptions[0]?.value : undefined);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const body = {
      name: v.name,
      company_id: v.company_id,
      roles: v.roles,
      collector: v.collector,
      expires_at: expiryIso(v.expires_at),
      allowed_ips: withStashedIp(v),
    };
    await save.run(createApiKeyRequest, body, async (b) => {
      const k = await create.mutateAsync(b);
      form.resetFields();
      onCreated(k);
    });
  };

  return (
    <Modal
      open={open}
      title="Новый API-ключ"
      okText="Создать"
      cancelText="Отмена"
      onOk={() => void submit()}
      okButtonProps={{ loading: create.isPending }}
      onCancel={onClose}
      destroyOnHidden
      width={680}
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        initialValues={{
          name: '',
          company_id: defaultCompany,
          roles: [{ module: '*', access: 'read' }],
          collector: false,
          allowed_ips: [],
          allowed_ips_stash: '',
        }}
        onValuesChange={save.clearError}
        data-testid="apikey-create-form"
      >
        <Form.Item name="name" label="Название" rules={[requiredRule, { max: 200, message: MSG.tooLong(200) }]}>
          <Input maxLength={200} placeholder="Например, «Интеграция SIEM»" />
        </Form.Item>
        <Form.Item
          name="company_id"
          label="Компания"
          rules={[{ required: true, message: MSG.required }]}
          extra="Ключ видит данные только этой компании"
        >
          <Select
            options={companyOptions}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Выберите компанию"
            aria-label="Компания"
          />
        </Form.Item>
        <Form.Item label="Роли" required>
          <RolesEditor />
        </Form.Item>
        {isStaff(me.role) && (
          <Form.Item
            name="collector"
            valuePropName="checked"
            extra="Может присылать сообщения Telegram-фильтра (POST /modules/filtrator/messages)"
          >
            <Checkbox>Сборщик сообщений</Checkbox>
          </Form.Item>
        )}
        <Form.Item name="expires_at" label="Действует до" extra="Пусто — бессрочно">
          <ExpiryPicker />
        </Form.Item>
        <Divider style={{ margin: '8px 0 16px' }} />
        <AllowedIpsFields
          label="Разрешённые IP-адреса"
          extra="Если список не пуст, ключ принимается только с этих адресов и подсетей."
        />
      </Form>
      {save.error && <Alert type="error" showIcon title={save.error} style={{ marginTop: 16 }} />}
    </Modal>
  );
}

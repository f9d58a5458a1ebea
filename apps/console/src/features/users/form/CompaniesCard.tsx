import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { Button, Card, Flex, Form, Select, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { companyRoleOptions } from '../roles';
import type { UserFormValues } from './values';

/** A company chosen in two rows is refused on the second. */
const uniqueCompany: Rule = ({ getFieldValue }) => ({
  validator: (_, value: number | undefined) => {
    const same = (getFieldValue('companies') as UserFormValues['companies']).filter((c) => c?.company_id === value);
    return value && same.length > 1 ? Promise.reject(new Error('Компания уже добавлена')) : Promise.resolve();
  },
});

/** «Компании и роли» of a company user: a row per company with the role in it, and the activation flag. */
export function CompaniesCard({ companyChoices }: { companyChoices: { value: number; label: string }[] }) {
  return (
    <Card title="Компании и роли">
      <Form.List name="companies">
        {(fields, { add, remove }) => (
          <Flex vertical gap={8}>
            {fields.length === 0 && (
              <Typography.Text type="secondary">
                Компании не назначены. Пользователь получит доступ после активации продуктового ключа.
              </Typography.Text>
            )}
            {fields.map((f) => (
              <Flex key={f.key} gap={8} align="start">
                <Form.Item
                  name={[f.name, 'company_id']}
                  rules={[{ required: true, message: MSG.required }, uniqueCompany]}
                  style={{ flex: 1, marginBottom: 0 }}
                >
                  <Select
                    placeholder="Компания"
                    showSearch={{ optionFilterProp: 'label' }}
                    options={companyChoices}
                    aria-label="Компания"
                  />
                </Form.Item>
                <Form.Item
                  name={[f.name, 'role']}
                  rules={[{ required: true, message: MSG.required }]}
                  style={{ width: 260, marginBottom: 0 }}
                >
                  <Select placeholder="Роль в компании" options={companyRoleOptions} aria-label="Роль в компании" />
                </Form.Item>
                <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label="Убрать компанию" />
              </Flex>
            ))}
            <div>
              <Button icon={<PlusOutlined />} onClick={() => add({ role: 'COMPANY_VIEWER' })}>
                Добавить компанию
              </Button>
            </div>
          </Flex>
        )}
      </Form.List>
      <Form.Item
        name="pending_activation"
        label="Ожидает активации продуктового ключа"
        valuePropName="checked"
        style={{ marginTop: 16, marginBottom: 0 }}
        extra="Пока флаг включён, после входа пользователь попадает на страницу активации ключа и не видит остальных разделов"
      >
        <Switch />
      </Form.Item>
    </Card>
  );
}

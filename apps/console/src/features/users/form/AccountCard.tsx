import { MSG } from '@forpost/contract/messages';
import type { UserRole } from '@forpost/contract/permissions';
import { Card, Col, Form, Input, Row, Select, Switch } from 'antd';
import { emailRule, requiredRule } from '../../auth/components/shared';
import { roleOptions } from '../roles';

/** «Учётная запись»: email, name, role (staff choose it; nobody changes their own) and the active switch. */
export function AccountCard({
  role,
  roles,
  canChooseRole,
  isSelf,
}: {
  role: UserRole | undefined;
  roles: readonly UserRole[];
  canChooseRole: boolean;
  isSelf: boolean;
}) {
  return (
    <Card title="Учётная запись">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="email" label="Email" rules={[requiredRule, emailRule]}>
            <Input autoComplete="off" maxLength={254} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name" label="Имя" rules={[requiredRule, { max: 200, message: MSG.tooLong(200) }]}>
            <Input autoComplete="off" maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="role"
            label="Роль"
            rules={[{ required: true, message: MSG.required }]}
            extra={role && role !== 'COMPANY_USER' ? 'Сотрудники видят все компании' : undefined}
          >
            <Select options={roleOptions(roles)} disabled={!canChooseRole || isSelf} placeholder="Выберите роль" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="is_active" label="Активен" valuePropName="checked" extra="Отключённый пользователь не может войти">
            <Switch disabled={isSelf} />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

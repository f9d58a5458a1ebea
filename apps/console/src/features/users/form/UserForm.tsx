import { SaveOutlined } from '@ant-design/icons';
import { Alert, Card, Col, Flex, Form, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { AllowedIpsFields } from '../../../components/form/AllowedIpsFields';
import { SubmitButtons } from '../../../components/form/SubmitButtons';
import { PageHeading } from '../../../components/page/PageHeading';
import { SecretOnceModal } from '../../../components/SecretOnceModal';
import type { User } from '../api/queries';
import { AccountCard } from './AccountCard';
import { CompaniesCard } from './CompaniesCard';
import { PasswordCard } from './PasswordCard';
import { UserActions } from './UserActions';
import { RolesHelp, UserFacts } from './UserSideCards';
import { useUserForm } from './useUserForm';
import type { UserFormValues } from './values';

/**
 * Create (no user) or edit a user: account, companies of a company user, allowed IPs, the password
 * of a new user; facts and role help on the side. State and actions: useUserForm.
 */
export function UserForm({ user, back }: { user?: User; back: ReactNode }) {
  const f = useUserForm(user);
  const role = Form.useWatch('role', f.form) ?? user?.role ?? (f.staff ? undefined : 'COMPANY_USER');
  const passwordMode = Form.useWatch('password_mode', f.form);

  return (
    <>
      <PageHeading
        title={user ? user.name : 'Новый пользователь'}
        subtitle={
          user ? user.email : f.staff ? 'Учётная запись сотрудника или пользователя компании' : 'Пользователь вашей компании'
        }
        back={back}
        extra={
          user && (
            <UserActions
              has2fa={user.is_2fa_enabled && !f.locked}
              canDelete={!f.isSelf && !f.locked}
              deleting={f.deleting}
              onReset2fa={f.reset2fa}
              onDelete={f.onDelete}
            />
          )
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<UserFormValues>
            form={f.form}
            layout="vertical"
            initialValues={f.initialValues}
            onFinish={f.onFinish}
            onFinishFailed={f.onFinishFailed}
            onValuesChange={f.clearFormError}
            disabled={f.locked}
            data-testid="user-form"
          >
            <Flex vertical gap={16}>
              {f.locked && <Alert type="info" showIcon title="Только суперадминистратор может изменять администраторов" />}
              <AccountCard role={role} roles={f.roles} canChooseRole={f.staff && !f.locked} isSelf={f.isSelf} />
              {role === 'COMPANY_USER' && <CompaniesCard companyChoices={f.companyChoices} />}
              <Card title="Ограничение по IP">
                <AllowedIpsFields disabled={f.locked} />
              </Card>
              {!user && <PasswordCard mode={passwordMode} />}
              {f.formError && <Alert type="error" showIcon title={f.formError} data-testid="user-form-error" />}
              {!f.locked && (
                <SubmitButtons
                  text={user ? 'Сохранить' : 'Создать'}
                  saving={f.saving}
                  cancelTo="/users"
                  icon={<SaveOutlined />}
                />
              )}
            </Flex>
          </Form>
        </Col>
        <Col xs={24} xl={8}>
          <Flex vertical gap={16}>
            {user && <UserFacts user={user} />}
            <RolesHelp roles={f.roles} />
          </Flex>
        </Col>
      </Row>
      <SecretOnceModal
        open={f.created !== null}
        title="Пароль пользователя"
        secret={f.created?.password ?? null}
        description={
          <>
            Учётная запись <Typography.Text strong>{f.created?.email}</Typography.Text> создана. Передайте пароль пользователю по
            защищённому каналу.
          </>
        }
        warning="Пароль показывается один раз: после закрытия окна его нельзя будет посмотреть снова."
        onClose={f.closeCreated}
      />
    </>
  );
}

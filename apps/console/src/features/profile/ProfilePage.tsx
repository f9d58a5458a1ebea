import { LockOutlined, SaveOutlined, UserOutlined, WifiOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { COMPANY_ROLE_LABELS, USER_ROLE_LABELS } from '@forpost/contract/permissions';
import { IDENTITY_MSG, type UpdateProfileRequest, updateProfileRequest } from '@forpost/contract/profile';
import { Alert, Button, Card, Col, Descriptions, Flex, Form, Input, Row, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { AllowedIpsFields, withStashedIp } from '../../components/form/AllowedIpsFields';
import { applyApiErrors, parseForForm } from '../../components/form/forms';
import { PageHeading } from '../../components/page/PageHeading';
import { feedback } from '../../lib/feedback';
import { strongPasswordRule } from '../auth/components/shared';
import { useMe } from '../auth/useMe';
import { useUpdateProfileMutation } from './api/mutations';
import { AvatarField, type AvatarValue } from './components/AvatarField';
import { SessionsCard } from './components/SessionsCard';
import { TwoFactorCard } from './components/TwoFactorCard';

/** The spec's profile form fields (§3). */
interface ProfileFormValues {
  name: string;
  avatar_image_key?: AvatarValue;
  current_password?: string;
  password?: string;
  password_repeat?: string;
  allowed_ips: string[];
  allowed_ips_stash?: string;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** /profile: name, avatar, password change, 2FA, allowed IPs, sessions. */
export function ProfilePage() {
  const me = useMe();
  const { message } = feedback;
  const [form] = Form.useForm<ProfileFormValues>();
  const update = useUpdateProfileMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const password = Form.useWatch('password', form);

  const onFinish = (values: ProfileFormValues) => {
    setFormError(null);
    const ips = withStashedIp(values);

    const body: UpdateProfileRequest = { name: values.name.trim() };
    if (values.avatar_image_key !== undefined) body.avatar_image_key = values.avatar_image_key;
    if (!sameList(ips, me.allowed_ips)) body.allowed_ips = ips;
    if (values.password) {
      body.password = values.password;
      body.password_repeat = values.password_repeat ?? '';
      body.current_password = values.current_password ?? '';
    }
    const parsed = parseForForm(form, updateProfileRequest, body, 'name');
    if (!parsed) {
      message.error(MSG.fillRequired);
      return;
    }
    update.mutate(parsed, {
      onSuccess: (saved) => {
        form.setFieldsValue({
          name: saved.name,
          avatar_image_key: undefined,
          current_password: '',
          password: '',
          password_repeat: '',
          allowed_ips: saved.allowed_ips,
          allowed_ips_stash: '',
        });
        message.success(IDENTITY_MSG.profileUpdated);
      },
      onError: (e) => {
        // Spec §8: a failed profile save is logged; the reason is shown next to the field it concerns.
        console.error('Сохранение профиля не удалось', e);
        setFormError(
          applyApiErrors(form, e, ['name', 'avatar_image_key', 'password', 'password_repeat', 'current_password', 'allowed_ips']),
        );
      },
    });
  };

  return (
    <>
      <PageHeading title="Профиль" subtitle={me.email} />
      {/* component={false}: no <form> element, so the 2FA card's own forms are not nested in it. */}
      <Form<ProfileFormValues>
        form={form}
        component={false}
        layout="vertical"
        initialValues={{ name: me.name, allowed_ips: me.allowed_ips, allowed_ips_stash: '' }}
        onFinish={onFinish}
        onFinishFailed={() => message.error(MSG.fillRequired)}
        onValuesChange={() => formError && setFormError(null)}
      >
        <Row gutter={[16, 16]} data-testid="profile-form">
          <Col xs={24} xl={14}>
            <Flex vertical gap={16}>
              <Card
                title={
                  <Space>
                    <UserOutlined />
                    Личные данные
                  </Space>
                }
              >
                <Form.Item name="avatar_image_key" label="Аватар">
                  <AvatarField currentUrl={me.avatar_url} />
                </Form.Item>
                <Form.Item
                  name="name"
                  label="Имя"
                  rules={[
                    { required: true, whitespace: true, message: MSG.required },
                    { max: 200, message: MSG.tooLong(200) },
                  ]}
                >
                  <Input autoComplete="name" maxLength={200} />
                </Form.Item>
                <Descriptions
                  size="small"
                  column={1}
                  items={[
                    { key: 'email', label: 'Email', children: me.email },
                    { key: 'role', label: 'Роль', children: USER_ROLE_LABELS[me.role] },
                    ...(me.role === 'COMPANY_USER' && me.companies.length
                      ? [
                          {
                            key: 'companies',
                            label: 'Компании',
                            children: (
                              <Flex gap={4} wrap>
                                {me.companies.map((c) => (
                                  <Tag key={c.id}>
                                    {c.name}
                                    {c.role ? ` · ${COMPANY_ROLE_LABELS[c.role]}` : ''}
                                  </Tag>
                                ))}
                              </Flex>
                            ),
                          },
                        ]
                      : []),
                  ]}
                />
              </Card>

              <Card
                title={
                  <Space>
                    <LockOutlined />
                    Смена пароля
                  </Space>
                }
              >
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 16 }}
                  title="Оставьте поля пустыми, чтобы не менять пароль. Новый пароль — не короче 16 символов, со строчной и заглавной буквой, цифрой и спецсимволом."
                />
                <Row gutter={16}>
                  <Col xs={24} md={12}>
                    <Form.Item name="password" label="Новый пароль" rules={[strongPasswordRule]}>
                      <Input.Password autoComplete="new-password" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12}>
                    <Form.Item
                      name="password_repeat"
                      label="Повторите пароль"
                      dependencies={['password']}
                      validateTrigger="onBlur"
                      rules={[
                        ({ getFieldValue }) => ({
                          validator: (_, value: unknown) => {
                            const p = getFieldValue('password') as string | undefined;
                            if (!p && !value) return Promise.resolve();
                            return value === p ? Promise.resolve() : Promise.reject(new Error(MSG.passwordsDiffer));
                          },
                        }),
                      ]}
                    >
                      <Input.Password autoComplete="new-password" />
                    </Form.Item>
                  </Col>
                </Row>
                <Form.Item
                  name="current_password"
                  label="Текущий пароль"
                  dependencies={['password']}
                  required={Boolean(password)}
                  extra="Нужен для смены пароля"
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_, value: unknown) =>
                        getFieldValue('password') && !value ? Promise.reject(new Error(MSG.required)) : Promise.resolve(),
                    }),
                  ]}
                  style={{ maxWidth: 'calc(50% - 8px)', minWidth: 260 }}
                >
                  <Input.Password autoComplete="current-password" />
                </Form.Item>
              </Card>
            </Flex>
          </Col>
          <Col xs={24} xl={10}>
            <Flex vertical gap={16}>
              <TwoFactorCard />
              <Card
                title={
                  <Space>
                    <WifiOutlined />
                    Разрешённые IP-адреса
                  </Space>
                }
              >
                <AllowedIpsFields label="Список адресов" />
                <Typography.Text type="secondary" style={{ display: 'block', marginTop: 12, fontSize: 12 }}>
                  Изменения списка вступают в силу после нажатия «Сохранить».
                </Typography.Text>
              </Card>
            </Flex>
          </Col>
          <Col span={24}>
            {formError && (
              <Alert type="error" showIcon title={formError} data-testid="profile-error" style={{ marginBottom: 16 }} />
            )}
            <Button type="primary" icon={<SaveOutlined />} size="large" loading={update.isPending} onClick={() => form.submit()}>
              Сохранить
            </Button>
          </Col>
        </Row>
      </Form>
      <div style={{ marginTop: 16 }}>
        <SessionsCard />
      </div>
    </>
  );
}

import {
  ArrowLeftOutlined,
  DeleteOutlined,
  MinusCircleOutlined,
  PlusOutlined,
  SafetyCertificateOutlined,
  SaveOutlined,
} from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { type CompanyRole, companiesWith, isStaff, USER_ROLE_LABELS, type UserRole } from '@forpost/contract/permissions';
import { createUserRequest, updateUserRequest } from '@forpost/contract/users';
import { normalizeIpEntry, validateAllowedIpEntry } from '@forpost/contract/validation';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Flex,
  Form,
  Input,
  Popconfirm,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { AllowedIpsFields } from '../../components/form/AllowedIpsFields';
import { applyApiErrors } from '../../components/form/forms';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadingCard } from '../../components/page/QueryState';
import { SecretOnceModal } from '../../components/SecretOnceModal';
import { formatDate, formatDateTime } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { emailRule, requiredRule } from '../auth/components/shared';
import { useMe, usePrincipal } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { useCreateUserMutation, useDeleteUserMutation, useUpdateUserMutation } from './api/mutations';
import { type User, useUserQuery } from './api/queries';
import { ADMIN_ROLES, assignableRoles, companyRoleOptions, roleOptions, USER_ROLE_HELP } from './roles';

interface UserFormValues {
  email: string;
  name: string;
  role: UserRole;
  companies: { company_id?: number; role?: CompanyRole }[];
  is_active: boolean;
  pending_activation: boolean;
  allowed_ips: string[];
  allowed_ips_stash?: string;
  password_mode?: 'invite' | 'generate';
}

const backLink = (
  <Link to="/users" style={{ display: 'inline-block', marginBottom: 8 }}>
    <ArrowLeftOutlined /> К списку пользователей
  </Link>
);

/** /users/{id?}/edit: create (no id) or edit a user. */
export function UserEditPage({ id }: { id?: number }) {
  const user = useUserQuery(id);
  if (id !== undefined && !user.data) {
    return (
      <>
        <PageHeading title="Пользователь" back={backLink} />
        {user.isError ? null : <LoadingCard />}
      </>
    );
  }
  return <UserForm key={user.data?.id ?? 'new'} user={user.data} />;
}

function UserForm({ user }: { user?: User }) {
  const me = useMe();
  const principal = usePrincipal();
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<UserFormValues>();
  const companies = useCompanyOptions();
  const create = useCreateUserMutation();
  const update = useUpdateUserMutation(user?.id ?? 0);
  const remove = useDeleteUserMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: number; email: string; password: string } | null>(null);

  const staff = isStaff(me.role);
  const isNew = !user;
  const isSelf = user?.id === me.id;
  /** Only a super admin changes admins (API: USER_MSG.onlySuperAdmin). */
  const locked = Boolean(user && ADMIN_ROLES.includes(user.role) && me.role !== 'SUPER_ADMIN');
  const role = Form.useWatch('role', form) ?? user?.role ?? (staff ? undefined : 'COMPANY_USER');
  const passwordMode = Form.useWatch('password_mode', form);

  const roles = useMemo(() => {
    const list = assignableRoles(me.role);
    return user && !list.includes(user.role) ? [user.role, ...list] : list;
  }, [me.role, user]);

  /** Companies the actor may add a user to. */
  const companyChoices = useMemo(() => {
    const scope = companiesWith(principal, 'users.manage');
    if (scope === 'all') return companies.options;
    return me.companies.filter((c) => scope.includes(c.id)).map((c) => ({ value: c.id, label: c.name }));
  }, [principal, companies.options, me.companies]);

  const initialValues: UserFormValues = user
    ? {
        email: user.email,
        name: user.name,
        role: user.role,
        companies: user.companies.map((c) => ({ company_id: c.company_id, role: c.role })),
        is_active: user.is_active,
        pending_activation: user.pending_activation,
        allowed_ips: user.allowed_ips,
        allowed_ips_stash: '',
      }
    : {
        email: '',
        name: '',
        role: staff ? (undefined as unknown as UserRole) : 'COMPANY_USER',
        companies:
          !staff && companyChoices.length === 1 ? [{ company_id: companyChoices[0]?.value, role: 'COMPANY_VIEWER' }] : [],
        is_active: true,
        pending_activation: false,
        allowed_ips: [],
        allowed_ips_stash: '',
        password_mode: 'invite',
      };

  const onError = (e: unknown) => {
    console.error('Сохранение пользователя не удалось', e);
    applyApiErrors(form, e, ['email', 'name', 'role', 'companies', 'allowed_ips']);
    setFormError(errorMessage(e));
  };

  const onFinish = (v: UserFormValues) => {
    setFormError(null);
    let ips = v.allowed_ips ?? [];
    const stash = normalizeIpEntry(v.allowed_ips_stash ?? '');
    if (stash && !validateAllowedIpEntry(stash, ips)) ips = [...ips, stash];
    const links =
      v.role === 'COMPANY_USER'
        ? v.companies
            .filter((c) => c.company_id && c.role)
            .map((c) => ({ company_id: c.company_id as number, role: c.role as CompanyRole }))
        : [];
    const common = {
      email: v.email,
      name: v.name,
      role: v.role,
      is_active: v.is_active,
      allowed_ips: ips,
      pending_activation: v.role === 'COMPANY_USER' ? v.pending_activation : false,
    };
    if (isNew) {
      const parsed = createUserRequest.safeParse({ ...common, companies: links, password_mode: v.password_mode ?? 'invite' });
      if (!parsed.success) {
        form.setFields(parsed.error.issues.map((i) => ({ name: String(i.path[0]), errors: [i.message] })) as never);
        message.error(MSG.fillRequired);
        return;
      }
      create.mutate(parsed.data, {
        onSuccess: (u) => {
          if (u.generated_password) {
            setCreated({ id: u.id, email: u.email, password: u.generated_password });
          } else {
            message.success(`Пользователь создан, приглашение отправлено на ${u.email}`);
            void navigate({ to: '/users' });
          }
        },
        onError,
      });
    } else {
      const body = v.role === 'COMPANY_USER' || v.role !== user.role ? { ...common, companies: links } : common;
      const parsed = updateUserRequest.safeParse(body);
      if (!parsed.success) {
        form.setFields(parsed.error.issues.map((i) => ({ name: String(i.path[0]), errors: [i.message] })) as never);
        message.error(MSG.fillRequired);
        return;
      }
      update.mutate(parsed.data, {
        onSuccess: (u) => {
          form.setFieldsValue({ allowed_ips: u.allowed_ips, allowed_ips_stash: '' });
          message.success('Пользователь сохранён');
        },
        onError,
      });
    }
  };

  const onDelete = () => {
    if (!user) return;
    modal.confirm({
      title: `Удалить пользователя ${user.name}?`,
      content: 'Его сеансы и API-ключи перестанут работать сразу. Действие нельзя отменить.',
      okText: 'Удалить',
      okButtonProps: { danger: true },
      cancelText: 'Отмена',
      onOk: () =>
        remove.mutateAsync(user.id).then(() => {
          message.success('Пользователь удалён');
          void navigate({ to: '/users' });
        }),
    });
  };

  const title = isNew ? 'Новый пользователь' : user.name;

  return (
    <>
      <PageHeading
        title={title}
        subtitle={
          isNew ? (staff ? 'Учётная запись сотрудника или пользователя компании' : 'Пользователь вашей компании') : user.email
        }
        back={backLink}
        extra={
          !isNew && (
            <>
              {user.is_2fa_enabled && !locked && (
                <Popconfirm
                  title="Сбросить двухфакторную аутентификацию?"
                  description="Пользователь войдёт только по паролю и сможет подключить 2FA заново."
                  okText="Сбросить"
                  cancelText="Отмена"
                  onConfirm={() =>
                    update.mutateAsync({ reset_2fa: true }).then(
                      () => {
                        message.success('Двухфакторная аутентификация сброшена');
                      },
                      (e: unknown) => {
                        message.error(errorMessage(e));
                      },
                    )
                  }
                >
                  <Button icon={<SafetyCertificateOutlined />}>Сбросить 2FA</Button>
                </Popconfirm>
              )}
              {!isSelf && !locked && (
                <Button danger icon={<DeleteOutlined />} onClick={onDelete} loading={remove.isPending}>
                  Удалить
                </Button>
              )}
            </>
          )
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<UserFormValues>
            form={form}
            layout="vertical"
            initialValues={initialValues}
            onFinish={onFinish}
            onFinishFailed={() => message.error(MSG.fillRequired)}
            onValuesChange={() => formError && setFormError(null)}
            disabled={locked}
            data-testid="user-form"
          >
            <Flex vertical gap={16}>
              {locked && <Alert type="info" showIcon title="Только суперадминистратор может изменять администраторов" />}
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
                      <Select options={roleOptions(roles)} disabled={!staff || locked || isSelf} placeholder="Выберите роль" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12}>
                    <Form.Item
                      name="is_active"
                      label="Активен"
                      valuePropName="checked"
                      extra="Отключённый пользователь не может войти"
                    >
                      <Switch disabled={isSelf} />
                    </Form.Item>
                  </Col>
                </Row>
              </Card>

              {role === 'COMPANY_USER' && (
                <Card title="Компании и роли">
                  <Form.List name="companies">
                    {(fields, { add, remove: removeRow }) => (
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
                              rules={[
                                { required: true, message: MSG.required },
                                ({ getFieldValue }) => ({
                                  validator: (_, value: number | undefined) => {
                                    const all = (getFieldValue('companies') as UserFormValues['companies']).filter(
                                      (c) => c?.company_id === value,
                                    );
                                    return value && all.length > 1
                                      ? Promise.reject(new Error('Компания уже добавлена'))
                                      : Promise.resolve();
                                  },
                                }),
                              ]}
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
                            <Button
                              type="text"
                              icon={<MinusCircleOutlined />}
                              onClick={() => removeRow(f.name)}
                              aria-label="Убрать компанию"
                            />
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
              )}

              <Card title="Ограничение по IP">
                <AllowedIpsFields disabled={locked} />
              </Card>

              {isNew && (
                <Card title="Пароль">
                  <Form.Item name="password_mode" style={{ marginBottom: 0 }}>
                    <Radio.Group
                      options={[
                        { value: 'invite', label: 'Отправить приглашение' },
                        { value: 'generate', label: 'Сгенерировать пароль' },
                      ]}
                    />
                  </Form.Item>
                  <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
                    {passwordMode === 'generate'
                      ? 'Пароль будет показан один раз после создания — передайте его пользователю по защищённому каналу.'
                      : 'Пользователь получит письмо со ссылкой для установки пароля (ссылка действует 7 дней).'}
                  </Typography.Paragraph>
                </Card>
              )}

              {formError && <Alert type="error" showIcon title={formError} data-testid="user-form-error" />}
              {!locked && (
                <Space>
                  <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={create.isPending || update.isPending}>
                    {isNew ? 'Создать' : 'Сохранить'}
                  </Button>
                  <Link to="/users">
                    <Button>Отмена</Button>
                  </Link>
                </Space>
              )}
            </Flex>
          </Form>
        </Col>
        <Col xs={24} xl={8}>
          <Flex vertical gap={16}>
            {!isNew && (
              <Card title="Сведения">
                <Descriptions
                  column={1}
                  size="small"
                  items={[
                    { key: 'role', label: 'Роль', children: USER_ROLE_LABELS[user.role] },
                    {
                      key: 'status',
                      label: 'Статус',
                      children: user.is_active ? <Tag color="green">Активен</Tag> : <Tag color="red">Отключён</Tag>,
                    },
                    {
                      key: '2fa',
                      label: '2FA',
                      children: user.is_2fa_enabled ? <Tag color="green">Включена</Tag> : <Tag>Выключена</Tag>,
                    },
                    ...(user.pending_activation
                      ? [{ key: 'pending', label: 'Активация', children: <Tag color="gold">Ждёт активации ключа</Tag> }]
                      : []),
                    { key: 'created', label: 'Создан', children: formatDate(user.created_at) },
                    {
                      key: 'login',
                      label: 'Последний вход',
                      children: user.last_login_at ? formatDateTime(user.last_login_at) : 'Не входил',
                    },
                  ]}
                />
              </Card>
            )}
            <Card title="Роли" size="small">
              <Flex vertical gap={8}>
                {roles.map((r) => (
                  <div key={r}>
                    <Typography.Text strong>{USER_ROLE_LABELS[r]}</Typography.Text>
                    <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 13 }}>
                      {USER_ROLE_HELP[r]}
                    </Typography.Paragraph>
                  </div>
                ))}
              </Flex>
            </Card>
          </Flex>
        </Col>
      </Row>
      <SecretOnceModal
        open={created !== null}
        title="Пароль пользователя"
        secret={created?.password ?? null}
        description={
          <>
            Учётная запись <Typography.Text strong>{created?.email}</Typography.Text> создана. Передайте пароль пользователю по
            защищённому каналу.
          </>
        }
        warning="Пароль показывается один раз: после закрытия окна его нельзя будет посмотреть снова."
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) void navigate({ to: '/users/{-$id}/edit', params: { id: String(id) }, replace: true });
        }}
      />
    </>
  );
}

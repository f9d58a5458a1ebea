import { MSG } from '@forpost/contract/messages';
import { companiesWith, isStaff } from '@forpost/contract/permissions';
import { createUserRequest, updateUserRequest } from '@forpost/contract/users';
import { useNavigate } from '@tanstack/react-router';
import { Form } from 'antd';
import { useMemo, useState } from 'react';
import { applyApiErrors, parseForForm } from '../../../components/form/forms';
import { feedback } from '../../../lib/feedback';
import { errorMessage } from '../../../lib/http';
import { useMe, usePrincipal } from '../../auth/useMe';
import { useCompanyOptions } from '../../companies/api/queries';
import { useCreateUserMutation, useDeleteUserMutation, useUpdateUserMutation } from '../api/mutations';
import type { User } from '../api/queries';
import { ADMIN_ROLES, assignableRoles } from '../roles';
import { createUserBody, initialUserValues, type UserFormValues, updateUserBody } from './values';

/** A created user's generated password, shown once. */
export interface CreatedUser {
  id: number;
  email: string;
  password: string;
}

/**
 * State and actions of the user form: who may change what, the values it starts with, save
 * (create or update, API field errors back on the form), delete and the 2FA reset.
 */
export function useUserForm(user: User | undefined) {
  const me = useMe();
  const principal = usePrincipal();
  const navigate = useNavigate();
  const { message, modal } = feedback;
  const [form] = Form.useForm<UserFormValues>();
  const companies = useCompanyOptions();
  const create = useCreateUserMutation();
  const update = useUpdateUserMutation(user?.id ?? 0);
  const remove = useDeleteUserMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedUser | null>(null);

  const staff = isStaff(me.role);
  const isSelf = user?.id === me.id;
  /** Only a super admin changes admins (API: USER_MSG.onlySuperAdmin). */
  const locked = Boolean(user && ADMIN_ROLES.includes(user.role) && me.role !== 'SUPER_ADMIN');

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

  const onError = (e: unknown) => {
    console.error('Сохранение пользователя не удалось', e);
    applyApiErrors(form, e, ['email', 'name', 'role', 'companies', 'allowed_ips']);
    setFormError(errorMessage(e));
  };

  const createUser = (v: UserFormValues) => {
    const body = parseForForm(form, createUserRequest, createUserBody(v));
    if (!body) return void message.error(MSG.fillRequired);
    create.mutate(body, {
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
  };

  const updateUser = (v: UserFormValues, current: User) => {
    const body = parseForForm(form, updateUserRequest, updateUserBody(v, current));
    if (!body) return void message.error(MSG.fillRequired);
    update.mutate(body, {
      onSuccess: (u) => {
        form.setFieldsValue({ allowed_ips: u.allowed_ips, allowed_ips_stash: '' });
        message.success('Пользователь сохранён');
      },
      onError,
    });
  };

  const onFinish = (v: UserFormValues) => {
    setFormError(null);
    if (user) updateUser(v, user);
    else createUser(v);
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

  const reset2fa = () =>
    update.mutateAsync({ reset_2fa: true }).then(
      () => {
        message.success('Двухфакторная аутентификация сброшена');
      },
      (e: unknown) => {
        message.error(errorMessage(e));
      },
    );

  /** After the generated password was shown: open the new user's page. */
  const closeCreated = () => {
    const id = created?.id;
    setCreated(null);
    if (id) void navigate({ to: '/users/{-$id}/edit', params: { id: String(id) }, replace: true });
  };

  return {
    form,
    initialValues: initialUserValues(user, staff, companyChoices),
    staff,
    isSelf,
    locked,
    roles,
    companyChoices,
    formError,
    clearFormError: () => formError && setFormError(null),
    saving: create.isPending || update.isPending,
    deleting: remove.isPending,
    onFinish,
    onFinishFailed: () => message.error(MSG.fillRequired),
    onDelete,
    reset2fa,
    created,
    closeCreated,
  };
}

import { idParam, listResponse } from '@forpost/contract/common';
import {
  createdUserResponse,
  createUserRequest,
  updateUserRequest,
  userListQuery,
  userResponse,
  userRolesRequest,
  userRolesResponse,
} from '@forpost/contract/users';
import { callerOf } from '../../lib/caller';
import { crudRoutes } from '../../lib/crud-routes';
import type { App } from '../../lib/routes';
import type { UsersService } from './users.service';

export async function usersRoutes(app: App, deps: { users: UsersService }) {
  const svc = deps.users;
  const tags = ['users'];

  crudRoutes(
    app,
    {
      tags,
      path: '/users',
      query: userListQuery,
      page: listResponse(userResponse),
      create: createUserRequest,
      created: createdUserResponse,
      response: userResponse,
      body: updateUserRequest,
    },
    {
      list: ['users.read', 'listUsers', 'Пользователи (поиск, фильтры по роли и компании)', (c, q) => svc.list(c, q)],
      create: [
        'users.manage',
        'createUser',
        'Создать пользователя: приглашение по email или сгенерированный пароль (показывается один раз)',
        (c, body) => svc.create(c, body),
      ],
      get: ['users.read', 'getUser', 'Пользователь', (c, { id }) => svc.get(c, id)],
      update: ['users.manage', 'updateUser', 'Изменить пользователя', (c, { id }, body) => svc.update(c, id, body)],
      remove: [
        'users.manage',
        'deleteUser',
        'Удалить пользователя (сессии и ключи завершаются сразу)',
        (c, { id }) => svc.remove(c, id),
      ],
    },
  );
  app.get(
    '/users/:id/roles',
    {
      config: { permission: 'users.read' },
      schema: {
        operationId: 'getUserRoles',
        tags,
        summary: 'Роль пользователя и его роли в компаниях',
        params: idParam,
        response: { 200: userRolesResponse },
      },
    },
    async (req) => svc.roles(callerOf(req), req.params.id),
  );
  app.post(
    '/users/:id/roles',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'setUserRoles',
        tags,
        summary: 'Назначить роль и роли в компаниях',
        params: idParam,
        body: userRolesRequest,
        response: { 200: userRolesResponse },
      },
    },
    async (req) => {
      const c = callerOf(req);
      await svc.update(c, req.params.id, { role: req.body.role, companies: req.body.companies });
      return svc.roles(c, req.params.id);
    },
  );
}

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
import { itemRoutes } from '../../lib/item-routes';
import type { App } from '../../lib/routes';
import type { UsersService } from './users.service';

export async function usersRoutes(app: App, deps: { users: UsersService }) {
  const svc = deps.users;
  const tags = ['users'];

  app.get(
    '/users',
    {
      config: { permission: 'users.read' },
      schema: {
        operationId: 'listUsers',
        tags,
        summary: 'Пользователи (поиск, фильтры по роли и компании)',
        querystring: userListQuery,
        response: { 200: listResponse(userResponse) },
      },
    },
    async (req) => svc.list(callerOf(req), req.query),
  );
  app.post(
    '/users',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'createUser',
        tags,
        summary: 'Создать пользователя: приглашение по email или сгенерированный пароль (показывается один раз)',
        body: createUserRequest,
        response: { 201: createdUserResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.body)),
  );
  itemRoutes(app, {
    path: '/users/:id',
    tags,
    params: idParam,
    response: userResponse,
    get: { permission: 'users.read', operationId: 'getUser', summary: 'Пользователь', run: (c, { id }) => svc.get(c, id) },
    update: {
      permission: 'users.manage',
      operationId: 'updateUser',
      summary: 'Изменить пользователя',
      body: updateUserRequest,
      run: (c, { id }, body) => svc.update(c, id, body),
    },
    remove: {
      permission: 'users.manage',
      operationId: 'deleteUser',
      summary: 'Удалить пользователя (сессии и ключи завершаются сразу)',
      run: (c, { id }) => svc.remove(c, id),
    },
  });
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

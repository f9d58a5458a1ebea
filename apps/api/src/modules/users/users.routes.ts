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
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import type { App } from '../../lib/routes';
import { requireAuth } from '../../plugins/access';
import type { UsersService } from './users.service';

export async function usersRoutes(app: App, deps: { users: UsersService }) {
  const svc = deps.users;
  const tags = ['users'];
  const actor = (req: Parameters<typeof actorOf>[0]) => ({ ...actorOf(req), userId: requireAuth(req).user.id });

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
    async (req) => svc.list(requireAuth(req).principal, req.query),
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
    async (req, reply) => reply.code(201).send(await svc.create(requireAuth(req).principal, actor(req), req.body)),
  );
  app.get(
    '/users/:id',
    {
      config: { permission: 'users.read' },
      schema: { operationId: 'getUser', tags, summary: 'Пользователь', params: idParam, response: { 200: userResponse } },
    },
    async (req) => svc.get(requireAuth(req).principal, req.params.id),
  );
  app.patch(
    '/users/:id',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'updateUser',
        tags,
        summary: 'Изменить пользователя',
        params: idParam,
        body: updateUserRequest,
        response: { 200: userResponse },
      },
    },
    async (req) => svc.update(requireAuth(req).principal, actor(req), req.params.id, req.body),
  );
  app.delete(
    '/users/:id',
    {
      config: { permission: 'users.manage' },
      schema: {
        operationId: 'deleteUser',
        tags,
        summary: 'Удалить пользователя (сессии и ключи завершаются сразу)',
        params: idParam,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await svc.remove(requireAuth(req).principal, actor(req), req.params.id);
      return reply.code(204).send(null);
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
    async (req) => svc.roles(requireAuth(req).principal, req.params.id),
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
      const p = requireAuth(req).principal;
      await svc.update(p, actor(req), req.params.id, { role: req.body.role, companies: req.body.companies });
      return svc.roles(p, req.params.id);
    },
  );
}

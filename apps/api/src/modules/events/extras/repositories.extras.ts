/* Repositories: files found in a repository event (path, link, matched fragment, optional sample doc). */
import { idParams, noContent } from '@forpost/contract/events';
import {
  repoFileCreateRequest,
  repoFileItem,
  repoFileParams,
  repoFilePatchRequest,
  repoFilesResponse,
} from '@forpost/contract/events-extras';
import { callerOf } from '../../../lib/caller';
import { eventsPath, pascal, tagsOf } from '../events.routes';
import type { ExtraRegistrar } from './extras';
import { createRepositoryFilesService } from './extras.service';

export const filesExtra: ExtraRegistrar = (app, m, ctx) => {
  const P = pascal(m.code);
  const tags = tagsOf(m);
  const base = `${eventsPath(m)}/:id/files`;
  const svc = createRepositoryFilesService(ctx, m);

  app.get(
    base,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: `list${P}EventFiles`,
        tags,
        summary: `${m.name}: файлы репозитория`,
        params: idParams,
        response: { 200: repoFilesResponse },
      },
    },
    async (req) => svc.list(callerOf(req), req.params.id),
  );

  app.post(
    base,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `create${P}EventFile`,
        tags,
        summary: `${m.name}: добавить файл`,
        params: idParams,
        body: repoFileCreateRequest,
        response: { 201: repoFileItem },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.create(callerOf(req), req.params.id, req.body)),
  );

  app.patch(
    `${base}/:fileId`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `update${P}EventFile`,
        tags,
        summary: `${m.name}: изменить файл`,
        params: repoFileParams,
        body: repoFilePatchRequest,
        response: { 200: repoFileItem },
      },
    },
    async (req) => svc.update(callerOf(req), req.params.id, req.params.fileId, req.body),
  );

  app.delete(
    `${base}/:fileId`,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: `delete${P}EventFile`,
        tags,
        summary: `${m.name}: удалить файл`,
        params: repoFileParams,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.remove(callerOf(req), req.params.id, req.params.fileId);
      return reply.code(204).send(null);
    },
  );
};

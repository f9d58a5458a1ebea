/* /comments: GET ?event_id=, POST, GET/PATCH/DELETE /{id}. */
import {
  commentCreateRequest,
  commentItem,
  commentListQuery,
  commentListResponse,
  commentPatchRequest,
} from '@forpost/contract/comments';
import { idParams, noContent } from '@forpost/contract/events';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { CommentsService } from './comments.service';

export function commentsRoutes(app: App, deps: { comments: CommentsService }) {
  const { comments } = deps;
  const tags = ['comments'];
  app.get(
    '/comments',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'listComments',
        tags,
        summary: 'Комментарии события',
        querystring: commentListQuery,
        response: { 200: commentListResponse },
      },
    },
    async (req) => comments.list(callerOf(req), req.query),
  );
  app.post(
    '/comments',
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'createComment',
        tags,
        summary: 'Добавить комментарий',
        body: commentCreateRequest,
        response: { 201: commentItem },
      },
    },
    async (req, reply) => reply.code(201).send(await comments.create(callerOf(req), req.body)),
  );
  app.get(
    '/comments/:id',
    {
      config: { permission: 'events.read' },
      schema: { operationId: 'getComment', tags, summary: 'Комментарий', params: idParams, response: { 200: commentItem } },
    },
    async (req) => comments.get(callerOf(req), req.params.id),
  );
  app.patch(
    '/comments/:id',
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'updateComment',
        tags,
        summary: 'Изменить комментарий',
        description: 'Автор — в течение 15 минут после публикации; администратор — всегда.',
        params: idParams,
        body: commentPatchRequest,
        response: { 200: commentItem },
      },
    },
    async (req) => comments.update(callerOf(req), req.params.id, req.body),
  );
  app.delete(
    '/comments/:id',
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'deleteComment',
        tags,
        summary: 'Удалить комментарий',
        params: idParams,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await comments.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}

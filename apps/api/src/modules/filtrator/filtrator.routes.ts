import {
  collectMessageRequest,
  collectSkippedResponse,
  FILTRATOR_MSG,
  messageIdParam,
  messageListQuery,
  messageListResponse,
  messageResponse,
  messageToEventRequest,
  messageToEventResponse,
} from '@forpost/contract/filtrator';
import { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { FiltratorService } from './filtrator.service';

const noContent = z.null().describe('Нет содержимого');

/** The message filter: collected Telegram messages matched against the company's keyword rules. */
export async function filtratorRoutes(app: App, deps: { filtrator: FiltratorService }) {
  const svc = deps.filtrator;
  const tags = ['filtrator'];

  app.get(
    '/modules/filtrator/messages',
    {
      config: { permission: 'messages.read' },
      schema: {
        operationId: 'listFiltratorMessages',
        tags,
        summary: 'Сообщения фильтратора: поиск с учётом словоформ, фильтры по каналу, компании, датам и правилу',
        querystring: messageListQuery,
        response: { 200: messageListResponse },
      },
    },
    async (req) => svc.list(callerOf(req), req.query),
  );
  app.post(
    '/modules/filtrator/messages',
    {
      config: { permission: 'messages.collect', unstorableText: 'clean' },
      schema: {
        operationId: 'collectFiltratorMessage',
        tags,
        summary:
          'Передать сообщение канала (API-ключ сборщика). Сообщение сверяется с ключевыми словами каждой компании, подписанной на канал (в пределах ключа), и сохраняется только для тех, чьи слова совпали. 201 — сохранено (первая из строк); 200 — такое сообщение (канал + message_id) уже есть, возвращается сохранённое без изменений; 202 — ни одна компания не совпала, ничего не сохранено; 404 — канал не зарегистрирован',
        body: collectMessageRequest,
        response: { 200: messageResponse, 201: messageResponse, 202: collectSkippedResponse },
      },
    },
    async (req, reply) => {
      const r = await svc.collect(callerOf(req), req.body);
      if ('skipped' in r) return reply.code(202).send({ stored: false as const, message: FILTRATOR_MSG.notMatched });
      return reply.code(r.created ? 201 : 200).send(r.message);
    },
  );
  app.get(
    '/modules/filtrator/messages/:id',
    {
      config: { permission: 'messages.read' },
      schema: {
        operationId: 'getFiltratorMessage',
        tags,
        summary: 'Сообщение: текст, канал, ссылка на оригинал, сработавшие правила',
        params: messageIdParam,
        response: { 200: messageResponse },
      },
    },
    async (req) => svc.get(callerOf(req), req.params.id),
  );
  app.delete(
    '/modules/filtrator/messages/:id',
    {
      config: { permission: 'messages.delete' },
      schema: {
        operationId: 'deleteFiltratorMessage',
        tags,
        summary: 'Удалить сообщение',
        params: messageIdParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.remove(callerOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/modules/filtrator/messages/:id/to-event',
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'filtratorMessageToEvent',
        tags,
        summary:
          'Создать событие выбранного модуля из сообщения: компания, источник Telegram, ссылка на пост и текст подставляются; недостающие поля модуля — в fields',
        params: messageIdParam,
        body: messageToEventRequest,
        response: { 201: messageToEventResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.toEvent(callerOf(req), req.params.id, req.body)),
  );
}

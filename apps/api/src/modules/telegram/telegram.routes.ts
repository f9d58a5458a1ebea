import { idParam } from '@forpost/contract/common';
import {
  createTelegramAccountRequest,
  createTelegramChannelRequest,
  telegramAccountListQuery,
  telegramAccountListResponse,
  telegramAccountResponse,
  telegramChannelListQuery,
  telegramChannelListResponse,
  telegramChannelResponse,
  updateTelegramAccountRequest,
  updateTelegramChannelRequest,
} from '@forpost/contract/telegram';
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import type { App } from '../../lib/routes';
import type { TelegramService } from './telegram.service';

const noContent = z.null().describe('Нет содержимого');

/** Telegram sources: collector accounts and monitored channels (staff: telegram.read / telegram.manage). */
export async function telegramRoutes(app: App, deps: { telegram: TelegramService }) {
  const svc = deps.telegram;
  const tags = ['telegram'];
  const read = { permission: 'telegram.read' as const };
  const manage = { permission: 'telegram.manage' as const };

  /* Accounts */
  app.get(
    '/modules/telegram/accounts',
    {
      config: read,
      schema: {
        operationId: 'listTelegramAccounts',
        tags,
        summary: 'Аккаунты-сборщики Telegram',
        querystring: telegramAccountListQuery,
        response: { 200: telegramAccountListResponse },
      },
    },
    async (req) => svc.listAccounts(req.query),
  );
  app.post(
    '/modules/telegram/accounts',
    {
      config: manage,
      schema: {
        operationId: 'createTelegramAccount',
        tags,
        summary: 'Добавить аккаунт-сборщик (api_id, api_hash и строка сессии хранятся зашифрованными и не возвращаются)',
        body: createTelegramAccountRequest,
        response: { 201: telegramAccountResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.createAccount(actorOf(req), req.body)),
  );
  app.get(
    '/modules/telegram/accounts/:id',
    {
      config: read,
      schema: {
        operationId: 'getTelegramAccount',
        tags,
        summary: 'Аккаунт-сборщик',
        params: idParam,
        response: { 200: telegramAccountResponse },
      },
    },
    async (req) => svc.getAccount(req.params.id),
  );
  app.patch(
    '/modules/telegram/accounts/:id',
    {
      config: manage,
      schema: {
        operationId: 'updateTelegramAccount',
        tags,
        summary: 'Изменить аккаунт-сборщик (секрет: строка — заменить, null — стереть, нет поля — оставить)',
        params: idParam,
        body: updateTelegramAccountRequest,
        response: { 200: telegramAccountResponse },
      },
    },
    async (req) => svc.updateAccount(actorOf(req), req.params.id, req.body),
  );
  app.delete(
    '/modules/telegram/accounts/:id',
    {
      config: manage,
      schema: {
        operationId: 'deleteTelegramAccount',
        tags,
        summary: 'Удалить аккаунт-сборщик',
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.removeAccount(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  /* Channels */
  app.get(
    '/modules/telegram/channels',
    {
      config: read,
      schema: {
        operationId: 'listTelegramChannels',
        tags,
        summary: 'Отслеживаемые каналы Telegram',
        querystring: telegramChannelListQuery,
        response: { 200: telegramChannelListResponse },
      },
    },
    async (req) => svc.listChannels(req.query),
  );
  app.post(
    '/modules/telegram/channels',
    {
      config: manage,
      schema: {
        operationId: 'createTelegramChannel',
        tags,
        summary: 'Добавить канал (ссылка https://t.me/имя или @имя; 409 — канал уже добавлен)',
        body: createTelegramChannelRequest,
        response: { 201: telegramChannelResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await svc.createChannel(actorOf(req), req.body)),
  );
  app.get(
    '/modules/telegram/channels/:id',
    {
      config: read,
      schema: {
        operationId: 'getTelegramChannel',
        tags,
        summary: 'Канал',
        params: idParam,
        response: { 200: telegramChannelResponse },
      },
    },
    async (req) => svc.getChannel(req.params.id),
  );
  app.patch(
    '/modules/telegram/channels/:id',
    {
      config: manage,
      schema: {
        operationId: 'updateTelegramChannel',
        tags,
        summary: 'Изменить канал; при смене компании собранные сообщения переходят к ней и сверяются с её правилами',
        params: idParam,
        body: updateTelegramChannelRequest,
        response: { 200: telegramChannelResponse },
      },
    },
    async (req) => svc.updateChannel(actorOf(req), req.params.id, req.body),
  );
  app.delete(
    '/modules/telegram/channels/:id',
    {
      config: manage,
      schema: {
        operationId: 'deleteTelegramChannel',
        tags,
        summary: 'Удалить канал вместе с собранными из него сообщениями',
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await svc.removeChannel(actorOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}

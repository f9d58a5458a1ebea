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
import { callerOf } from '../../lib/caller';
import { itemRoutes } from '../../lib/item-routes';
import type { App } from '../../lib/routes';
import type { TelegramService } from './telegram.service';

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
    async (req, reply) => reply.code(201).send(await svc.createAccount(callerOf(req), req.body)),
  );
  itemRoutes(app, {
    path: '/modules/telegram/accounts/:id',
    tags,
    params: idParam,
    response: telegramAccountResponse,
    get: { ...read, operationId: 'getTelegramAccount', summary: 'Аккаунт-сборщик', run: (_c, { id }) => svc.getAccount(id) },
    update: {
      ...manage,
      operationId: 'updateTelegramAccount',
      summary: 'Изменить аккаунт-сборщик (секрет: строка — заменить, null — стереть, нет поля — оставить)',
      body: updateTelegramAccountRequest,
      run: (c, { id }, body) => svc.updateAccount(c, id, body),
    },
    remove: {
      ...manage,
      operationId: 'deleteTelegramAccount',
      summary: 'Удалить аккаунт-сборщик',
      run: (c, { id }) => svc.removeAccount(c, id),
    },
  });

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
    async (req, reply) => reply.code(201).send(await svc.createChannel(callerOf(req), req.body)),
  );
  itemRoutes(app, {
    path: '/modules/telegram/channels/:id',
    tags,
    params: idParam,
    response: telegramChannelResponse,
    get: { ...read, operationId: 'getTelegramChannel', summary: 'Канал', run: (_c, { id }) => svc.getChannel(id) },
    update: {
      ...manage,
      operationId: 'updateTelegramChannel',
      summary: 'Изменить канал; при смене компании собранные сообщения переходят к ней и сверяются с её правилами',
      body: updateTelegramChannelRequest,
      run: (c, { id }, body) => svc.updateChannel(c, id, body),
    },
    remove: {
      ...manage,
      operationId: 'deleteTelegramChannel',
      summary: 'Удалить канал вместе с собранными из него сообщениями',
      run: (c, { id }) => svc.removeChannel(c, id),
    },
  });
}

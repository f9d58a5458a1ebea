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
  telegramLoginCodeRequest,
  telegramLoginPasswordRequest,
  telegramLoginResponse,
  telegramLoginStartRequest,
  updateTelegramAccountRequest,
  updateTelegramChannelRequest,
} from '@forpost/contract/telegram';
import type { z } from 'zod';
import { callerOf } from '../../lib/caller';
import { crudRoutes } from '../../lib/crud-routes';
import type { App } from '../../lib/routes';
import type { TelegramService } from './telegram.service';

/** Telegram sources: collector accounts and monitored channels (staff: telegram.read / telegram.manage). */
export async function telegramRoutes(app: App, deps: { telegram: TelegramService }) {
  const svc = deps.telegram;
  const tags = ['telegram'];
  const read = { permission: 'telegram.read' as const };
  const manage = { permission: 'telegram.manage' as const };

  /* Accounts */
  crudRoutes(
    app,
    {
      tags,
      path: '/modules/telegram/accounts',
      query: telegramAccountListQuery,
      page: telegramAccountListResponse,
      create: createTelegramAccountRequest,
      item: '/modules/telegram/accounts/:id',
      params: idParam,
      response: telegramAccountResponse,
      body: updateTelegramAccountRequest,
    },
    {
      list: [read.permission, 'listTelegramAccounts', 'Аккаунты-сборщики Telegram', async (_c, q) => svc.listAccounts(q)],
      create: [
        manage.permission,
        'createTelegramAccount',
        'Добавить аккаунт-сборщик (api_id, api_hash и строка сессии хранятся зашифрованными и не возвращаются)',
        (c, body) => svc.createAccount(c, body),
      ],
      get: [read.permission, 'getTelegramAccount', 'Аккаунт-сборщик', (_c, { id }) => svc.getAccount(id)],
      update: [
        manage.permission,
        'updateTelegramAccount',
        'Изменить аккаунт-сборщик (секрет: строка — заменить, null — стереть, нет поля — оставить)',
        (c, { id }, body) => svc.updateAccount(c, id, body),
      ],
      remove: [manage.permission, 'deleteTelegramAccount', 'Удалить аккаунт-сборщик', (c, { id }) => svc.removeAccount(c, id)],
    },
  );

  /* Sign-in («Войти»): the code, password and session never come back; attempts are limited and audited. */
  const login = (path: string, operationId: string, summary: string, body: z.ZodType) => ({
    path: `/modules/telegram/accounts/:id/login/${path}`,
    opts: {
      config: { permission: manage.permission },
      schema: { operationId, tags, summary, params: idParam, body, response: { 200: telegramLoginResponse } },
    },
  });
  const start = login('start', 'startTelegramLogin', 'Войти: отправить код на телефон аккаунта', telegramLoginStartRequest);
  app.post(start.path, start.opts, async (req) => svc.loginStart(callerOf(req), (req.params as { id: number }).id));
  const code = login('code', 'submitTelegramLoginCode', 'Войти: код из Telegram', telegramLoginCodeRequest);
  app.post(code.path, code.opts, async (req) =>
    svc.loginCode(callerOf(req), (req.params as { id: number }).id, (req.body as { code: string }).code),
  );
  const pwd = login('password', 'submitTelegramLoginPassword', 'Войти: облачный пароль (2FA)', telegramLoginPasswordRequest);
  app.post(pwd.path, pwd.opts, async (req) =>
    svc.loginPassword(callerOf(req), (req.params as { id: number }).id, (req.body as { password: string }).password),
  );

  /* Channels */
  crudRoutes(
    app,
    {
      tags,
      path: '/modules/telegram/channels',
      query: telegramChannelListQuery,
      page: telegramChannelListResponse,
      create: createTelegramChannelRequest,
      item: '/modules/telegram/channels/:id',
      params: idParam,
      response: telegramChannelResponse,
      body: updateTelegramChannelRequest,
    },
    {
      list: [read.permission, 'listTelegramChannels', 'Отслеживаемые каналы Telegram', async (_c, q) => svc.listChannels(q)],
      create: [
        manage.permission,
        'createTelegramChannel',
        'Добавить канал (ссылка https://t.me/имя или @имя; 409 — канал уже добавлен)',
        (c, body) => svc.createChannel(c, body),
      ],
      get: [read.permission, 'getTelegramChannel', 'Канал', (_c, { id }) => svc.getChannel(id)],
      update: [
        manage.permission,
        'updateTelegramChannel',
        'Изменить канал; при смене компании собранные сообщения переходят к ней и сверяются с её правилами',
        (c, { id }, body) => svc.updateChannel(c, id, body),
      ],
      remove: [
        manage.permission,
        'deleteTelegramChannel',
        'Удалить канал вместе с собранными из него сообщениями',
        (c, { id }) => svc.removeChannel(c, id),
      ],
    },
  );
}

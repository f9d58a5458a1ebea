import type { ReportSend } from '@forpost/contract/reports';
import { describe, expect, it } from 'vitest';
import { sendPending, sendState } from './sendState';

const base: ReportSend = {
  id: 1,
  status: 'queued',
  recipients: ['ciso@alfa.ru', 'soc@alfa.ru'],
  attempts: 0,
  error: null,
  created_at: new Date(2026, 2, 5, 14, 0).toISOString(),
  sent_at: null,
};

describe('sendState', () => {
  it('shows the last send the way the spec writes dates', () => {
    expect(sendState({ ...base, status: 'sent', attempts: 1, sent_at: new Date(2026, 2, 5, 14, 30).toISOString() })).toEqual({
      text: 'Отправлен 05.03.2026 14:30',
      color: 'success',
      detail: 'Получатели: ciso@alfa.ru, soc@alfa.ru',
    });
    expect(sendState({ ...base, status: 'failed', attempts: 3, error: 'SMTP-сервер не ответил вовремя' }).text).toBe(
      'Ошибка отправки: SMTP-сервер не ответил вовремя',
    );
    expect(sendState(base)).toMatchObject({ text: 'В очереди', color: 'default' });
    const retry = sendState({ ...base, attempts: 1, error: 'SMTP-сервер недоступен' });
    expect(retry).toMatchObject({ text: 'В очереди', color: 'warning' });
    expect(retry.detail).toContain('Попытка 1 из 3 не удалась: SMTP-сервер недоступен');
    expect(sendState({ ...base, status: 'sending', attempts: 1 }).text).toBe('Отправляется');
  });

  it('without the recipients and the reason (a viewer): the state alone', () => {
    const hidden = { ...base, recipients: null, error: null };
    expect(sendState({ ...hidden, status: 'failed', attempts: 3 })).toEqual({
      text: 'Ошибка отправки',
      color: 'error',
      detail: '',
    });
    expect(sendState({ ...hidden, status: 'sent', attempts: 1, sent_at: new Date(2026, 2, 5, 14, 30).toISOString() })).toEqual({
      text: 'Отправлен 05.03.2026 14:30',
      color: 'success',
      detail: '',
    });
    expect(sendState({ ...hidden, attempts: 1 }).detail).toBe('Попытка 1 из 3 не удалась. Повтор — автоматически');
  });

  it('is pending only while queued or sending', () => {
    expect(sendPending(null)).toBe(false);
    expect(sendPending(base)).toBe(true);
    expect(sendPending({ ...base, status: 'sending' })).toBe(true);
    expect(sendPending({ ...base, status: 'sent' })).toBe(false);
    expect(sendPending({ ...base, status: 'failed' })).toBe(false);
  });
});

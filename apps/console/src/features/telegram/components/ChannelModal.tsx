import { MSG } from '@forpost/contract/messages';
import {
  KEYWORDS_MAX,
  normaliseChannel,
  TELEGRAM_COLLECT_MODE_LABELS,
  TELEGRAM_COLLECT_MODES,
  TELEGRAM_MSG,
  type TelegramCollectMode,
} from '@forpost/contract/telegram';
import { Alert, Flex, Form, Input, Select, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { checkRule } from '../../../components/form/forms';
import { feedback } from '../../../lib/feedback';
import { useCompanyOptions } from '../../companies/api/queries';
import { type ChannelBody, useSaveChannelMutation } from '../api/mutations';
import type { TelegramChannel } from '../api/queries';

interface Values {
  link: string;
  title?: string;
  company_id?: number;
  keywords: string[];
  is_active: boolean;
  collect_mode: TelegramCollectMode;
}

const FIELDS = ['link', 'title', 'company_id', 'keywords', 'is_active', 'collect_mode'];
const MODE_OPTIONS = TELEGRAM_COLLECT_MODES.map((m) => ({ value: m, label: TELEGRAM_COLLECT_MODE_LABELS[m] }));

/** Create (channel = null) or edit a monitored channel: link or @username, company, keyword rules. */
export function ChannelModal({
  channel,
  open,
  defaultCompanyId,
  onClose,
}: {
  channel: TelegramChannel | null;
  open: boolean;
  defaultCompanyId?: number;
  onClose: () => void;
}) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const save = useSaveChannelMutation();
  const companies = useCompanyOptions();
  const link = Form.useWatch('link', form);
  const companyId = Form.useWatch('company_id', form);
  const normalised = link ? normaliseChannel(link) : null;

  useEffect(() => {
    if (!open) return;
    reset({
      link: channel?.username ?? '',
      title: channel?.title ?? '',
      company_id: channel?.company.id ?? defaultCompanyId,
      keywords: channel?.keywords ?? [],
      is_active: channel?.is_active ?? true,
      collect_mode: channel?.collect_mode ?? 'preview',
    });
  }, [open, channel, defaultCompanyId, reset]);

  const onOk = () =>
    submit(
      async (v) => {
        const body: ChannelBody = {
          link: v.link.trim(),
          title: v.title?.trim() || null,
          company_id: v.company_id,
          keywords: v.keywords.map((k) => k.trim()).filter(Boolean),
          is_active: v.is_active,
          // The mode is shared by every company following the channel: a new subscription left at the
          // default does not switch a channel another company reads by account back to the preview.
          ...((channel || v.collect_mode !== 'preview') && { collect_mode: v.collect_mode }),
        };
        const saved = await save.mutateAsync({ id: channel?.id, body });
        message.success(channel ? `Канал ${saved.username} сохранён` : `Канал ${saved.username} добавлен`);
        onClose();
      },
      FIELDS,
      (k) => (k.startsWith('keywords.') ? 'keywords' : k),
    );

  return (
    <FormModal<Values>
      open={open}
      title={channel ? `Канал ${channel.username}` : 'Новый канал'}
      isNew={!channel}
      saving={save.isPending}
      width={640}
      form={form}
      formError={formError}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <Form.Item
        name="link"
        label="Ссылка или имя канала"
        validateTrigger="onBlur"
        rules={[
          { required: true, whitespace: true, message: MSG.required },
          checkRule((s) => (normaliseChannel(s) ? null : TELEGRAM_MSG.channel)),
        ]}
        extra={
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {normalised ? `Сохранится как ${normalised}` : 'https://t.me/имя или @имя — только публичные каналы'}
          </Typography.Text>
        }
      >
        <Input autoFocus placeholder="https://t.me/channel_name" data-testid="channel-link" />
      </Form.Item>
      <Form.Item name="title" label="Название" rules={[{ max: 300, message: MSG.tooLong(300) }]}>
        <Input placeholder="Как канал называется в Telegram" data-testid="channel-title" />
      </Form.Item>
      <Form.Item name="company_id" label="Компания" rules={[{ required: true, message: MSG.required }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="Чьи ключевые слова ищем в сообщениях"
          options={companies.options}
          loading={companies.isPending}
          data-testid="channel-company"
        />
      </Form.Item>
      {channel && companyId !== undefined && companyId !== channel.company.id && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="Сообщения канала перейдут к другой компании и будут заново проверены по её ключевым словам; не совпавшие удалятся"
        />
      )}
      <Form.Item
        name="collect_mode"
        label="Как читать канал"
        extra={
          <span style={{ fontSize: 12 }}>
            Веб-просмотр — без аккаунта, только публичные каналы, с задержкой, без правок. Аккаунт — читает аккаунт-сборщик из
            раздела «Аккаунты» и замечает правки и удаления последних 100 постов. Режим общий для всех компаний, следящих за
            каналом
          </span>
        }
      >
        <Select options={MODE_OPTIONS} data-testid="channel-mode" />
      </Form.Item>
      <Form.Item
        name="keywords"
        label="Ключевые слова"
        rules={[
          {
            validator: async (_r, v: string[] | undefined) => {
              if ((v?.length ?? 0) > KEYWORDS_MAX) throw new Error(`Не более ${KEYWORDS_MAX} ключевых слов`);
              if (v?.some((k) => k.trim().length > 200)) throw new Error(MSG.tooLong(200));
            },
          },
        ]}
        extra={
          <span style={{ fontSize: 12 }}>
            Enter или запятая добавляют слово. Совпадения ищутся с учётом словоформ: «карта» найдёт «картой», «карты»
          </span>
        }
      >
        <Select
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '\n']}
          placeholder="сбербанк, утечка, база данных"
          data-testid="channel-keywords"
        />
      </Form.Item>
      <Flex gap={8} align="center">
        <Form.Item name="is_active" valuePropName="checked" noStyle>
          <Switch />
        </Form.Item>
        <span>Собирать сообщения канала</span>
      </Flex>
      <Alert
        type="info"
        showIcon
        style={{ marginTop: 16 }}
        title="Как собираются сообщения"
        description="Канал читается из веб-просмотра Telegram (t.me/s/…) без аккаунта: только публичные каналы, новые посты появляются с задержкой до интервала опроса, правки и удаления постов не видны. Один канал собирается один раз для всех компаний; сообщение сохраняется для компании, только если совпало с её ключевыми словами."
      />
    </FormModal>
  );
}

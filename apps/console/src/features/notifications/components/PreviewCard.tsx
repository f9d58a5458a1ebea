import type { MailingFilters, MailingPreview } from '@forpost/contract/mailings';
import { MODULE_LIST } from '@forpost/contract/modules';
import { Alert, Card, Flex, List, Spin, Statistic, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { errorMessage } from '../../../lib/http';
import { usePreviewMutation } from '../api/mutations';

const moduleName = (code: string) => MODULE_LIST.find((m) => m.code === code)?.name ?? code;

/**
 * «Сколько событий пришло бы за 7 дней» (with «Переходы наблюдения»: how many such transitions):
 * refreshed 400 ms after the filters stop changing.
 */
export function PreviewCard({ body }: { body: { company_id: number | null; filters: MailingFilters } }) {
  const preview = usePreviewMutation();
  const [data, setData] = useState<MailingPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify(body);
  const { mutateAsync } = preview;

  useEffect(() => {
    let cancelled = false;
    const t = setTimeout(() => {
      mutateAsync(JSON.parse(key))
        .then((r) => {
          if (cancelled) return;
          setData(r);
          setError(null);
        })
        .catch((e) => !cancelled && setError(errorMessage(e)));
    }, 400);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [key, mutateAsync]);

  return (
    <Card size="small" title="Проверка фильтров" data-testid="mailing-preview">
      {error ? (
        <Alert type="warning" showIcon message={error} />
      ) : !data ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      ) : (
        <Flex vertical gap={8}>
          <Spin spinning={preview.isPending} size="small">
            <Statistic
              title={
                body.filters.transitions.length
                  ? `Подошло бы переходов наблюдения за последние ${data.days} дней`
                  : `Подошло бы событий за последние ${data.days} дней`
              }
              value={`${formatNumber(data.count)}${data.capped ? '+' : ''}`}
              valueStyle={{ fontSize: 28 }}
            />
            <span data-testid="mailing-preview-count" style={{ display: 'none' }}>
              {data.count}
            </span>
          </Spin>
          {data.count > 0 ? (
            <>
              <Typography.Text type="secondary">Последние из них:</Typography.Text>
              <List
                size="small"
                dataSource={data.sample}
                renderItem={(s) => (
                  <List.Item style={{ paddingInline: 0 }}>
                    <Flex vertical style={{ minWidth: 0 }}>
                      <Typography.Text ellipsis style={{ maxWidth: 320 }}>
                        {s.title}
                      </Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {moduleName(s.module)} · {formatDateTime(s.created_at)}
                      </Typography.Text>
                    </Flex>
                  </List.Item>
                )}
              />
            </>
          ) : (
            <Typography.Text type="secondary">За неделю таких событий не было — проверьте фильтры.</Typography.Text>
          )}
          {data.count >= 200 && (
            <Alert
              type="info"
              showIcon
              message="Событий много: в одно письмо попадут первые по важности, остальные — строкой «и ещё N событий»."
            />
          )}
        </Flex>
      )}
    </Card>
  );
}

/*
 * Attachments of an event: screenshots and samples uploaded through POST /docs (multipart, with
 * event_id). Images are thumbnails that open full size in the antd preview; other files download.
 */
import { DeleteOutlined, FileOutlined, UploadOutlined } from '@ant-design/icons';
import { DOC_KIND_LABELS, DOC_SIZE_LIMITS, IMAGE_TYPES } from '@forpost/contract/docs';
import type { ModuleCode } from '@forpost/contract/modules';
import { Button, Card, Empty, Flex, Image, Popconfirm, Segmented, Typography, Upload } from 'antd';
import { useState } from 'react';
import { onDownloadClick } from '../../../lib/download';
import { feedback } from '../../../lib/feedback';
import { formatDateTime, formatFileSize } from '../../../lib/format';
import { useDocMutations } from '../api/mutations';
import { docContentUrl } from '../api/paths';
import type { Attachment } from '../model/types';

type UploadKind = 'screenshot' | 'sample';

export function Attachments({
  code,
  eventId,
  items,
  canWrite,
}: {
  code: ModuleCode;
  eventId: number;
  items: readonly Attachment[];
  canWrite: boolean;
}) {
  const { message } = feedback;
  const { upload, remove } = useDocMutations(code, eventId);
  const [kind, setKind] = useState<UploadKind>('screenshot');
  const images = items.filter((a) => a.mimetype.startsWith('image/'));
  const files = items.filter((a) => !a.mimetype.startsWith('image/'));

  const beforeUpload = (file: File) => {
    if (file.size > DOC_SIZE_LIMITS[kind]) {
      message.error(`Файл слишком большой: не более ${Math.round(DOC_SIZE_LIMITS[kind] / 1024 / 1024)} МБ`);
      return Upload.LIST_IGNORE;
    }
    if (kind === 'screenshot' && !(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      message.error('Скриншот — изображение PNG, JPEG, WebP или GIF');
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const removeButton = (a: Attachment) =>
    canWrite && (
      <Popconfirm
        title={`Удалить «${a.name}»?`}
        okText="Удалить"
        cancelText="Отмена"
        okButtonProps={{ danger: true }}
        onConfirm={() => remove.mutate(a.id)}
      >
        <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`Удалить ${a.name}`} />
      </Popconfirm>
    );

  return (
    <Card
      title={`Вложения${items.length ? ` (${items.length})` : ''}`}
      size="small"
      data-testid="attachments"
      extra={
        canWrite && (
          <Flex gap={8} align="center">
            <Segmented<UploadKind>
              size="small"
              value={kind}
              onChange={setKind}
              options={[
                { value: 'screenshot', label: DOC_KIND_LABELS.screenshot },
                { value: 'sample', label: DOC_KIND_LABELS.sample },
              ]}
              aria-label="Вид файла"
            />
            <Upload
              showUploadList={false}
              accept={kind === 'screenshot' ? IMAGE_TYPES.join(',') : undefined}
              beforeUpload={beforeUpload}
              customRequest={({ file, onSuccess, onError }) => {
                upload.mutate(
                  { file: file as File, kind },
                  {
                    onSuccess: (doc) => {
                      message.success(`Файл «${doc.name}» загружен`);
                      onSuccess?.(doc);
                    },
                    onError: (e) => onError?.(e as Error),
                  },
                );
              }}
            >
              <Button size="small" icon={<UploadOutlined />} loading={upload.isPending} data-testid="attachment-upload">
                Загрузить
              </Button>
            </Upload>
          </Flex>
        )
      }
    >
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Нет вложений" style={{ margin: 0 }} />
      ) : (
        <Flex vertical gap={12}>
          {images.length > 0 && (
            <Image.PreviewGroup>
              <Flex gap={12} wrap>
                {images.map((a) => (
                  <Flex key={a.id} vertical gap={4} style={{ width: 148 }} data-testid={`attachment-${a.id}`}>
                    <Image
                      src={docContentUrl(a.id)}
                      alt={a.name}
                      width={148}
                      height={100}
                      style={{ objectFit: 'cover', borderRadius: 6, border: '1px solid rgba(0,0,0,.06)' }}
                    />
                    <Flex align="center" gap={2}>
                      <Typography.Text ellipsis={{ tooltip: a.name }} style={{ fontSize: 12, flex: 1, minWidth: 0 }}>
                        {a.name}
                      </Typography.Text>
                      {removeButton(a)}
                    </Flex>
                    <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                      {DOC_KIND_LABELS[a.kind as keyof typeof DOC_KIND_LABELS] ?? a.kind} · {formatFileSize(a.size)}
                    </Typography.Text>
                  </Flex>
                ))}
              </Flex>
            </Image.PreviewGroup>
          )}
          {files.length > 0 && (
            <Flex vertical gap={4}>
              {files.map((a) => (
                <Flex
                  key={a.id}
                  gap={10}
                  align="center"
                  data-testid={`attachment-${a.id}`}
                  style={{ padding: '6px 0', borderTop: '1px solid rgba(0,0,0,.04)' }}
                >
                  <FileOutlined style={{ fontSize: 18, color: '#8c8c8c' }} />
                  <Flex vertical style={{ flex: 1, minWidth: 0 }}>
                    <a
                      href={docContentUrl(a.id)}
                      download={a.name}
                      onClick={onDownloadClick}
                      style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                    >
                      {a.name}
                    </a>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {`${DOC_KIND_LABELS[a.kind as keyof typeof DOC_KIND_LABELS] ?? a.kind} · ${formatFileSize(a.size)} · ${formatDateTime(a.created_at)}`}
                    </Typography.Text>
                  </Flex>
                  {removeButton(a)}
                </Flex>
              ))}
            </Flex>
          )}
        </Flex>
      )}
    </Card>
  );
}

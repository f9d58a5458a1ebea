import { DeleteOutlined, LoadingOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { DOC_MSG, DOC_SIZE_LIMITS } from '@forpost/contract/docs';
import { Avatar, Button, Flex, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { feedback } from '../../../lib/feedback';
import { errorMessage, getErrorStatus } from '../../../lib/http';
import { useUploadAvatarMutation } from '../api/mutations';

/** Avatar formats the profile accepts (the API also takes GIF; the spec asks for these three). */
const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const AVATAR_MAX_BYTES = DOC_SIZE_LIMITS.avatar;

/** null = remove the avatar, number = the uploaded document, undefined = unchanged. */
export type AvatarValue = number | null | undefined;

export interface AvatarFieldProps {
  value?: AvatarValue;
  onChange?: (v: AvatarValue) => void;
  /** The current avatar (GET /me avatar_url). */
  currentUrl: string | null;
}

/**
 * Avatar picker: PNG/JPEG/WebP up to 5 MB is uploaded at once (POST /docs, kind=avatar); the
 * profile's «Сохранить» then stores its id (PATCH /me avatar_image_key).
 */
export function AvatarField({ value, onChange, currentUrl }: AvatarFieldProps) {
  const { message } = feedback;
  const upload = useUploadAvatarMutation();
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  // The form was reset (saved): drop the local preview.
  useEffect(() => {
    if (value === undefined) setPreview(null);
  }, [value]);

  const shown = value === null ? null : (preview ?? currentUrl);

  const pick = (file: File) => {
    if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) {
      message.error('Подойдёт изображение PNG, JPEG или WebP');
      return false;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      message.error(DOC_MSG.tooLarge(AVATAR_MAX_BYTES));
      return false;
    }
    upload.mutate(file, {
      onSuccess: (doc) => {
        setPreview(URL.createObjectURL(file));
        onChange?.(doc.id);
      },
      onError: (e) => {
        console.error('Загрузка аватара не удалась', e);
        message.error(getErrorStatus(e) === 404 ? 'Загрузка файлов пока недоступна на сервере' : errorMessage(e));
      },
    });
    return false;
  };

  return (
    <Flex align="center" gap={16}>
      <Avatar size={72} src={shown ?? undefined} icon={shown ? undefined : <UserOutlined />} data-testid="profile-avatar" />
      <Flex vertical gap={6}>
        <Flex gap={8} wrap>
          <Upload accept={AVATAR_TYPES.join(',')} showUploadList={false} beforeUpload={pick} maxCount={1}>
            <Button icon={upload.isPending ? <LoadingOutlined /> : <UploadOutlined />} disabled={upload.isPending}>
              {shown ? 'Заменить' : 'Загрузить'}
            </Button>
          </Upload>
          {shown && (
            <Button icon={<DeleteOutlined />} onClick={() => onChange?.(currentUrl ? null : undefined)}>
              Убрать
            </Button>
          )}
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          PNG, JPEG или WebP, не больше 5 МБ
          {value !== undefined && ' · изменение сохранится после нажатия «Сохранить»'}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

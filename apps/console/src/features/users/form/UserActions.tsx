import { DeleteOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Popconfirm } from 'antd';

/** The heading buttons of an existing user: «Сбросить 2FA» (asks first) and «Удалить». */
export function UserActions({
  has2fa,
  canDelete,
  deleting,
  onReset2fa,
  onDelete,
}: {
  has2fa: boolean;
  canDelete: boolean;
  deleting: boolean;
  onReset2fa: () => Promise<unknown>;
  onDelete: () => void;
}) {
  return (
    <>
      {has2fa && (
        <Popconfirm
          title="Сбросить двухфакторную аутентификацию?"
          description="Пользователь войдёт только по паролю и сможет подключить 2FA заново."
          okText="Сбросить"
          cancelText="Отмена"
          onConfirm={onReset2fa}
        >
          <Button icon={<SafetyCertificateOutlined />}>Сбросить 2FA</Button>
        </Popconfirm>
      )}
      {canDelete && (
        <Button danger icon={<DeleteOutlined />} onClick={onDelete} loading={deleting}>
          Удалить
        </Button>
      )}
    </>
  );
}

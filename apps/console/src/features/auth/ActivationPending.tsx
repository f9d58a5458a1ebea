import { Button } from 'antd';
import { BlankLayout } from '../shell/BlankLayout';
import { SectionPending } from '../shell/SectionPending';
import { useLogoutMutation } from './api/mutations';

/** /product-keys-activation (blank layout) until the activation screen is built. */
export function ActivationPending() {
  const logout = useLogoutMutation();
  return (
    <BlankLayout>
      <div style={{ width: '100%', maxWidth: 640 }}>
        <SectionPending
          title="Активация ключа продукта"
          extra={
            <Button onClick={() => logout.mutate()} loading={logout.isPending}>
              Выйти
            </Button>
          }
        />
      </div>
    </BlankLayout>
  );
}

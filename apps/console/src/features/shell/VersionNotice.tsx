import { Button } from 'antd';
import { useEffect } from 'react';
import { feedback } from '../../lib/feedback';
import { installPreloadErrorReload, startVersionCheck } from '../../lib/version-check';

installPreloadErrorReload();

const NOTICE_KEY = 'app-version-outdated';

/**
 * Polls /version.json (at start and every 60 s). When the deployed version differs from this
 * build, a persistent notice at the bottom right offers «Обновить» (reloads the page).
 */
export function VersionNotice() {
  const { notification } = feedback;

  useEffect(() => {
    if (import.meta.env.DEV) return;
    return startVersionCheck(() => {
      notification.warning({
        key: NOTICE_KEY,
        title: 'Версия приложения устарела',
        description: 'Вышла новая версия консоли. Обновите страницу, чтобы продолжить работу в ней.',
        placement: 'bottomRight',
        duration: 0,
        closable: false,
        role: 'alert',
        actions: (
          <Button type="primary" onClick={() => window.location.reload()}>
            Обновить
          </Button>
        ),
      });
    });
  }, []);

  return null;
}

// The page's side of Web Push (issue 41), mounted once in the shell (app/layout.tsx): registers the service
// worker, follows its 'signaldesk-open' messages with the router (a click on a notification while a page is
// open: no reload, so a PIN kept in memory stays entered), and sends an existing subscription again at page
// load and login (its login and language stay current on the server).
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { refreshPushSubscription, registerPushWorker } from './push-device';

/** The worker's message: open this path of the SPA. */
export const PUSH_OPEN_MESSAGE = 'signaldesk-open';

/** A path of this site the page may go to ('/x…', never '//host' or a full URL). */
export function isAppPath(url: unknown): url is string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//');
}

export function usePush(userUuid: string | undefined): void {
  const navigate = useNavigate();
  const { i18n } = useTranslation();

  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    void registerPushWorker();
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type !== PUSH_OPEN_MESSAGE || !isAppPath(data.url)) return;
      void navigate(data.url);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    // addEventListener alone leaves the worker's messages queued until the document has loaded.
    navigator.serviceWorker.startMessages();
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);

  useEffect(() => {
    if (userUuid) void refreshPushSubscription(i18n.language);
  }, [userUuid, i18n.language]);
}

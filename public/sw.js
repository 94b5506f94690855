// Signaldesk's service worker (issue 41): Web Push only. Plain JavaScript served as it is from public/ (no
// build step). It has no fetch handler on purpose: it caches nothing and never stands between the page and
// the network, so it does not change how the app loads or updates (docs/spa.md "Web Push in the page").
'use strict';

// A new version takes over at once: it holds no cache a running page could depend on.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// The payload is contracts/push.ts pushMessage, already in the trader's language.
self.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : undefined;
  } catch {
    message = undefined;
  }
  if (!message || typeof message.title !== 'string') return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      data: message,
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      timestamp: message.sent_at,
    }),
  );
});

/**
 * The page a click opens: the message's url; for a signal whose card is gone (its 99 s passed, expires_at)
 * /trading, told so with ?signal_expired so it says "That signal has expired".
 */
function targetOf(message) {
  if (
    !message ||
    typeof message.url !== 'string' ||
    !message.url.startsWith('/') ||
    message.url.startsWith('//')
  ) {
    return '/trading';
  }
  if (
    message.kind === 'signal' &&
    typeof message.expires_at === 'number' &&
    message.expires_at <= Date.now()
  ) {
    return message.signal_uuid
      ? `/trading?signal_expired=${encodeURIComponent(message.signal_uuid)}`
      : '/trading';
  }
  return message.url;
}

/** Shows `target` in an open window of this site (its router moves, no reload), else in a new one. */
async function open(target) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const page = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!page) {
    await self.clients.openWindow(target);
    return;
  }
  // src/features/push/use-push.ts navigates: a PIN kept in the page's memory stays entered.
  page.postMessage({ type: 'signaldesk-open', url: target });
  try {
    await page.focus();
  } catch {
    // focus() needs the click's user activation; without it the page has moved all the same.
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const done = open(targetOf(event.notification.data));
  try {
    event.waitUntil(done);
  } catch {
    // Only a trusted event can be extended (a synthetic one, as the browser tests dispatch, cannot): the work
    // has started and runs to its end anyway.
  }
});

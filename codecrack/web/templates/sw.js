// codecrack's service worker (served as /sw.js by codecrack/web/installable.py, which fills in VERSION):
// the static cache below, and the notifications of Web Push at the end.
// It caches static assets only: /static/... and a game's /games/GAME/FILE.js|css. Everything else
// (pages, /api answers, websockets, anything with a query or a token) goes to the network untouched.
const VERSION = __VERSION__;
const CACHE = `codecrack-static-${VERSION}`;
const STATIC = /^\/(static\/[\w./-]+|games\/[a-z0-9_-]+\/[a-z0-9_-]+\.(js|css))$/;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name)))));
});

function cacheable(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === self.location.origin && !url.search
    && !request.headers.has("authorization") && STATIC.test(url.pathname);
}

self.addEventListener("fetch", (event) => {
  if (!cacheable(event.request)) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(event.request);
    if (kept) return kept;
    const response = await fetch(event.request);
    if (response.ok && response.type === "basic") await cache.put(event.request, response.clone());
    return response;
  }));
});

// Web Push (codecrack/web/notify/push.py): a message is {title, body, url, stop}; a click opens url, a path on
// this site; its "stop" button unsubscribes this browser in one click (no cookie: the endpoint is the proof).
self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(message.title || "codecrack", {
    body: message.body || "", icon: "/static/icons/app-192.png", data: { url: message.url || "/" },
    actions: message.stop ? [{ action: "stop", title: message.stop }] : [],
  }));
});

async function stopPushes() {
  const subscription = await self.registration.pushManager.getSubscription();
  if (!subscription) return;
  await fetch("/api/push/unsubscribe", {
    method: "POST", credentials: "omit", headers: { "content-type": "application/json" },
    body: JSON.stringify({ endpoint: subscription.endpoint }),
  });
  await subscription.unsubscribe();
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  if (event.action === "stop") {
    event.waitUntil(stopPushes());
    return;
  }
  const url = new URL(event.notification.data.url, self.location.origin);
  if (url.origin === self.location.origin) event.waitUntil(self.clients.openWindow(url.href));
});

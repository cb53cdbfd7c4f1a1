// The hall's service worker (served at /sw.js, root scope, by laizi/server/assets.py,
// which puts `const LAIZI = {version, cache, shell}` in front of this file).
//
// * install: precache the app shell (the page, every module, stylesheet, vendored file,
//   tile and icon of this version) under the cache `laizi-{version}`;
// * activate: delete every other laizi cache (an older version's), take the open pages;
// * the API (/api/…), the websocket (/ws/…) and everything else not named below go to
//   the network untouched: never cached, never answered from a cache (a seat's view, a
//   session's ledger are the server's to say);
// * /static/…: cache first (a versioned URL never changes; the cache is per version);
// * a page (/, /r/CODE, /replay/CODE, /score): network first, the cached page offline.
/* global LAIZI */
const CACHE = LAIZI.cache;
const PAGES = /^\/(r\/[^/]+|replay\/[^/]+|score)?\/?$/;
const PASS = /^\/(api|ws)\//;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(LAIZI.shell.map((url) => new Request(url, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("laizi-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || PASS.test(url.pathname)) return;
  if (request.mode === "navigate") {
    if (PAGES.test(url.pathname)) event.respondWith(page(request));
    return;
  }
  if (url.pathname.startsWith("/static/")) event.respondWith(cacheFirst(request));
});

// The page from the network (a new version's, when there is one), else the cached one:
// every page of the client is the same index.html.
async function page(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const cached = await caches.match("/", { cacheName: CACHE });
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request, { cacheName: CACHE });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic" && !response.redirected) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy)).catch(() => {});
  }
  return response;
}

// A tap on a "your turn" notice (static/js/device.js) brings the room's page forward, or
// opens it.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => w.url.split("?")[0] === url.split("?")[0]);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});

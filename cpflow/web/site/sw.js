// The site's service worker (`cpflow site` fills in SETTINGS): it keeps the site's files in a cache named after
// their contents, and the runtime's too when it comes from the CDN, so that the site opens without a network after
// the first visit. A new site is a new cache; the old one goes once the new one is in place.

const SETTINGS = __SETTINGS__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SETTINGS.cache)
      .then((cache) => cache.addAll(SETTINGS.files))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  const old = (name) => name.startsWith("cpflow-") && name !== SETTINGS.cache;
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const ours = new URL(request.url).origin === location.origin;
  const runtime = SETTINGS.cdn !== null && request.url.startsWith(SETTINGS.cdn);
  if (request.method !== "GET" || !(ours || runtime)) return;
  event.respondWith(
    caches.open(SETTINGS.cache).then(async (cache) => {
      const kept = await cache.match(request, { ignoreSearch: true });
      if (kept) return kept;
      const answer = await fetch(request);
      if (answer.ok && runtime) cache.put(request, answer.clone());
      return answer;
    }),
  );
});

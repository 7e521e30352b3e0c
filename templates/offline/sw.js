// The site's service worker (served at /sw.js, scope /): it keeps what the game
// against the computer needs with no connection: its page, the engine and Pyodide.
// One cache per deploy, named by the files' hashes ("domino-offline-<version>").
// A new deploy's worker fetches its files in the background on the next online
// visit and waits: it takes over when no page of the old one is open, or when the
// offline page starts its next game (it asks: "skip-waiting"), never mid-game.
"use strict";
const VERSION = "{{ version }}";
const CACHE = "domino-offline-" + VERSION;
const PRECACHE = {{ precache|safe }};
const OFFLINE_PAGE = {{ offline_url|safe }};
const STATIC_URL = {{ static_url|safe }};
const PAGE_WAIT_MS = 4000; // online but slow: the kept page rather than a long wait

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // one by one, so a failed download names itself and nothing half-kept is used
      Promise.all(PRECACHE.map((url) => cache.add(new Request(url, { cache: "reload" }))))
    )
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("domino-offline-") && name !== CACHE)
            .map((name) => caches.delete(name))
        )
      )
      .then(() => self.clients.claim())
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

function fromCache(request) {
  return caches.open(CACHE).then((cache) => cache.match(request));
}

// The offline page: the network's when it answers and is this deploy's (the player's
// language, the latest words), then kept; this deploy's kept one when the network
// has a newer deploy's (it goes with that deploy's worker, which takes over between
// games: a game in progress goes on with the files it started with) or no connection.
function offlinePage(request) {
  const network = fetch(request).then((response) => {
    if (response.ok && response.headers.get("X-Offline-Version") === VERSION) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(OFFLINE_PAGE, copy));
      return response;
    }
    return fromCache(OFFLINE_PAGE).then((kept) => kept || response);
  });
  const late = new Promise((resolve) => setTimeout(resolve, PAGE_WAIT_MS));
  return Promise.race([network, late.then(() => fromCache(OFFLINE_PAGE).then((kept) => kept || network))])
    .then((response) => response || network)
    .catch(() => fromCache(OFFLINE_PAGE).then((kept) => kept || Response.error()));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname === OFFLINE_PAGE) {
      event.respondWith(offlinePage(request));
    } else {
      // any other page with no connection: the game that needs none
      event.respondWith(
        fetch(request).catch(() =>
          fromCache(OFFLINE_PAGE).then((kept) => kept || Response.error())
        )
      );
    }
    return;
  }
  if (url.pathname.startsWith(STATIC_URL)) {
    // the files' names carry their version: a kept one is the right one
    event.respondWith(fromCache(request).then((kept) => kept || fetch(request)));
  }
});

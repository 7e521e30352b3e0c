// The site as an app: once a page has loaded (never before: the page comes first),
// the service worker is registered and, in the background, keeps what the game
// against the computer needs with no connection (templates/offline/sw.js).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  if (navigator.connection && navigator.connection.saveData) return; // the player saves data
  var script = document.currentScript;
  var url = script && script.dataset.worker;
  if (!url) return;
  function register() {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {});
  }
  window.addEventListener("load", function () {
    (window.requestIdleCallback || setTimeout)(register, { timeout: 3000 });
  });
})();

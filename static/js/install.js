// The site as an app: once a page has loaded (never before: the page comes first),
// the service worker is registered and, in the background, keeps what the game
// against the computer needs with no connection (templates/offline/sw.js).  Once it
// holds them, the offline game's worker is started once, in the background, to make its
// start-up snapshot (static/offline/worker.js, "prepare"): the first game opened
// with no connection then starts in a second or two, not ten.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  if (navigator.connection && navigator.connection.saveData) return; // the player saves data
  var script = document.currentScript;
  var url = script && script.dataset.worker;
  if (!url) return;
  var PREPARED = "domino.offline.prepared"; // the files the snapshot was made for
  var idle = window.requestIdleCallback || setTimeout;

  function prepared(files) {
    try {
      return window.localStorage.getItem(PREPARED) === files;
    } catch (e) {
      return true; // no storage: nothing would be kept either
    }
  }
  function prepare() {
    var files = script.dataset.prepare;
    if (!files || !window.Worker || prepared(files) || document.querySelector("#offline-config")) return;
    var config = JSON.parse(files);
    if (performance.mark) performance.mark("offline-prepare-start");
    var worker = new Worker(config.worker, { type: "module" });
    worker.onmessage = function (e) {
      if (e.data.type === "prepared") {
        // where the preparation's time went (bench/offline.py reads it)
        if (performance.mark) performance.mark("offline-prepared", { detail: e.data.timings });
        try {
          window.localStorage.setItem(PREPARED, files);
        } catch (error) {}
      }
      worker.terminate(); // prepared, or failed: the offline page will start as usual
    };
    worker.onerror = function () {
      worker.terminate();
    };
    worker.postMessage({
      type: "prepare",
      pyodide: config.pyodide,
      python: config.python,
      engine: config.engine,
      language: config.language,
    });
  }
  function register() {
    navigator.serviceWorker
      .register(url, { scope: "/" })
      .then(function () {
        return navigator.serviceWorker.ready; // the offline game's files are kept
      })
      .then(function () {
        // at once, not at the next idle moment (a busy table's may be seconds away): the
        // preparation runs in its worker, off the page's thread
        if (performance.mark) performance.mark("offline-sw-ready");
        prepare();
      })
      .catch(function () {});
  }
  window.addEventListener("load", function () {
    idle(register, { timeout: 3000 });
  });
})();

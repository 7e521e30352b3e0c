// A hand's verify page: what this browser remembers of the hand (table.js keeps the
// commitments it saw and the seeds it sent, in localStorage) checked against the
// revealed proof.  The server's own check is on the page without this file.
(function () {
  "use strict";
  var page = document.querySelector("[data-verify]");
  if (!page) return;
  var commitment = page.dataset.commitment;
  function stored(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }
  if (stored("domino-seen:" + commitment)) page.querySelector("[data-seen]").hidden = false;
  var mine = stored("domino-seed:" + commitment);
  if (!mine) return;
  var used = Array.prototype.some.call(page.querySelectorAll("[data-client-seed]"), function (c) {
    return c.dataset.clientSeed === mine;
  });
  page.querySelector(used ? "[data-yours]" : "[data-not-yours]").hidden = false;
})();

// Countdowns from the server's deadlines: each [data-remaining-ms] element counts
// down from the time left when the server rendered it (not from the browser's clock).
(function () {
  "use strict";
  function stamp(root) {
    root.querySelectorAll("[data-remaining-ms]:not([data-ends])").forEach(function (el) {
      el.dataset.ends = String(Date.now() + Number(el.dataset.remainingMs));
    });
  }
  function tick() {
    stamp(document);
    document.querySelectorAll("[data-ends]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.ends) - Date.now()) / 1000));
      var out = el.querySelector(".seconds") || el;
      if (out.textContent !== String(left)) out.textContent = String(left);
      el.classList.toggle("urgent", left <= 5);
    });
  }
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("DOMContentLoaded", tick);
  setInterval(tick, 250);
})();

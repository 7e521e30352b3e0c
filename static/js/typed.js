// What the player typed survives a websocket frame, on every page with a socket.
//
// A frame replaces whole regions by id (htmx's out-of-band swap): a region redrawn
// around a text box brings the server's empty box back, and the box the player is
// in leaves the page, taking the focus (and a phone's keyboard) with it.  So, just
// before htmx swaps a region in: each text box of the region the player has typed
// into passes its text to the new box with the same id; and once the frame is in,
// the element the player was in (a box, a button) has the focus back, the caret
// where it was.  One rule for every form a frame can redraw, in every browser:
// hx-preserve kept the focus only where the browser has moveBefore, and only for
// the boxes marked one by one.  The server's own value wins when the player typed
// nothing (the box still holds what the page or the last frame put there).
(function () {
  "use strict";
  var TEXT = "input[id]:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([readonly]), textarea[id]";
  var refocus = null; // {id, start, end}: where the player was when a frame took it away

  function inside(target, selector) {
    var found = Array.prototype.slice.call(target.querySelectorAll(selector));
    if (target.matches(selector)) found.push(target);
    return found;
  }

  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target;
    var fragment = e.detail.fragment;
    if (!target || !fragment || !fragment.querySelector) return;
    inside(target, TEXT).forEach(function (box) {
      if (box.value === box.defaultValue) return; // nothing typed: the server's value stands
      var fresh = fragment.querySelector("#" + CSS.escape(box.id));
      if (fresh && fresh.tagName === box.tagName) fresh.value = box.value;
    });
    var active = document.activeElement;
    if (active && active !== document.body && active.id && target.contains(active)) {
      var caret = typeof active.selectionStart === "number";
      refocus = {
        id: active.id,
        start: caret ? active.selectionStart : null,
        end: caret ? active.selectionEnd : null,
      };
    }
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!refocus) return;
    var where = refocus;
    refocus = null;
    var element = document.getElementById(where.id);
    if (!element || element === document.activeElement) return; // kept (hx-preserve) or gone
    element.focus({ preventScroll: true });
    if (where.start !== null && element.setSelectionRange) {
      try {
        element.setSelectionRange(where.start, where.end);
      } catch (ignored) {
        // a box whose type has no caret
      }
    }
  });

  // A read-only box holding a link to share ([data-select-all]) selects it all when
  // clicked, ready to copy (a listener here: the pages allow no onclick attribute).
  document.addEventListener("click", function (event) {
    var box = event.target.closest && event.target.closest("input[data-select-all]");
    if (box) box.select();
  });
})();

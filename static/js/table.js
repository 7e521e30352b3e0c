// The table page between websocket frames: the tab's title, the last move's
// animation, optional sounds, the connection banner, and a hand that sends one
// move at a time.  The server stays the only authority: this file only decides
// what the player sees and when a click may be sent.  It also adds this browser's
// random seed to the next deal once the table shows that deal's commitment.
(function () {
  "use strict";
  var live = document.querySelector(".table-live");
  if (!live) return;

  var SOUND_COOKIE = "domino_sound";
  var reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  var seen = null; // what the last frame showed: {key, yourTurn, handOver}
  var fromRect = null; // where my own tile was when I played it
  var offline = false;
  var flashTimer = null;
  var chosenTile = null; // a tile that fits both ends, chosen: the line's ends are targets
  var sentAt = -1; // the table's version when the last move left
  var socket = null; // the websocket's wrapper (htmx's extension), to send a seed
  var seededFor = {}; // commitments this page sent a seed for, since the socket opened

  // Reconnect within seconds, not the extension's minute-long backoff.
  if (window.htmx) {
    window.htmx.config.wsReconnectDelay = function (retries) {
      return Math.min(4000, 400 * Math.pow(2, retries)) * (0.5 + Math.random() / 2);
    };
    // The page's first socket says which regions the page drew (data-shown): its first
    // frame leaves those as they are.  A later socket says nothing (the page has moved
    // on since) and gets the whole view.  (The extension's documented hook.)
    var shown = live.dataset.shown;
    window.htmx.createWebSocket = function (url) {
      if (shown && url.indexOf("/ws/table/") >= 0) {
        url += (url.indexOf("?") >= 0 ? "&" : "?") + "shown=" + encodeURIComponent(shown);
        shown = null;
      }
      var made = new WebSocket(url, []);
      made.binaryType = window.htmx.config.wsBinaryType;
      return made;
    };
  }

  function head() {
    return document.getElementById("table-head");
  }

  // ---- sounds (off unless the player turned them on; made here, no files) ----
  function soundOn() {
    return document.cookie.split("; ").indexOf(SOUND_COOKIE + "=1") >= 0;
  }
  function setSound(on) {
    document.cookie = SOUND_COOKIE + "=" + (on ? "1" : "0") + "; path=/; max-age=31536000; SameSite=Lax";
    syncSoundToggle();
  }
  function syncSoundToggle() {
    document.querySelectorAll("[data-sound-toggle]").forEach(function (b) {
      b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    });
  }
  var audio = null;
  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }
  function tone(ctx, freq, start, length, type, volume) {
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(volume, start);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }
  function play(name) {
    if (!soundOn()) return;
    document.documentElement.dataset.lastSound = name; // what the browser tests read
    var ctx = audioContext();
    if (!ctx) return;
    var t = ctx.currentTime + 0.01;
    if (name === "tile") {
      // a tile knocked on the table: a short low thump and a click
      tone(ctx, 160, t, 0.08, "sine", 0.5);
      tone(ctx, 1900, t, 0.03, "square", 0.06);
    } else if (name === "turn") {
      tone(ctx, 660, t, 0.14, "sine", 0.25);
      tone(ctx, 880, t + 0.15, 0.22, "sine", 0.25);
    } else if (name === "over") {
      tone(ctx, 523, t, 0.16, "triangle", 0.3);
      tone(ctx, 659, t + 0.16, 0.16, "triangle", 0.3);
      tone(ctx, 784, t + 0.32, 0.34, "triangle", 0.3);
    }
  }

  // ---- the last move: from the seat that played it (or my hand) to its place ----
  function animateLastMove(h) {
    var tile = document.querySelector("#board .placed.last");
    if (!tile || reducedMotion.matches) return;
    var from = null;
    if (h.dataset.lastSeat === h.dataset.you && fromRect) {
      from = fromRect;
    } else {
      var card = document.querySelector('#seats .seat[data-seat="' + h.dataset.lastSeat + '"]');
      if (card && card.getClientRects().length) from = card.getBoundingClientRect();
    }
    if (!from) return;
    var to = tile.getBoundingClientRect();
    var dx = from.left + from.width / 2 - (to.left + to.width / 2);
    var dy = from.top + from.height / 2 - (to.top + to.height / 2);
    tile.animate(
      [
        { transform: "translate(" + dx + "px, " + dy + "px) scale(1.3)", opacity: 0.7 },
        { transform: "none", opacity: 1 },
      ],
      { duration: 420, easing: "cubic-bezier(.2, .8, .3, 1)" }
    );
  }

  // ---- this browser's share of the next deal (games/engine/deals.py) ----
  // The server committed to its secret seed first (the commitment is on the page),
  // so a seed chosen here now cannot be answered by a deal of its choosing.  The seed
  // is kept (localStorage) so that the hand's verify page can show it was used.
  function randomHex(bytes) {
    var values = new Uint8Array(bytes);
    window.crypto.getRandomValues(values);
    return Array.prototype.map
      .call(values, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      })
      .join("");
  }
  function addSeed() {
    var deal = document.getElementById("deal");
    var commitment = deal && deal.dataset.nextCommitment;
    if (!commitment || !socket || offline || seededFor[commitment] || !window.crypto) return;
    var key = "domino-seed:" + commitment;
    var seed = null;
    try {
      seed = window.localStorage.getItem(key);
    } catch (e) {}
    if (!seed) {
      seed = randomHex(32);
      try {
        window.localStorage.setItem(key, seed);
      } catch (e) {}
    }
    seededFor[commitment] = true;
    socket.send(JSON.stringify({ action: "seed", commitment: commitment, seed: seed }), live);
  }

  // The hand's commitment as this browser saw it before the seed was revealed: the
  // hand's verify page says so when it finds it here.
  function rememberCommitment() {
    var shown = document.querySelector("#deal [data-commitment]");
    if (!shown) return;
    try {
      window.localStorage.setItem("domino-seen:" + shown.dataset.commitment, "1");
    } catch (e) {}
  }

  // ---- focus and the screen reader ----
  // A frame replaces whole regions: the button that had the focus is gone, and the focus
  // would fall back to the page's start.  Where it was is remembered as it moves (the
  // offline table swaps regions without htmx's events), and given back after each frame:
  // the same button if it is still there, else the same tile's, else the region's first.
  var focusKey = null;
  function keyOf(el) {
    var region = el.closest(".table-live section[id]");
    var tile = el.closest("[data-tile]");
    var end = el.matches(".ends-choice button") ? (el.className.match(/end-\w+/) || [""])[0] : "";
    var kind = el.matches(".tile-button") ? "tile-button" : el.matches(".tile-select") ? "tile-select" : end;
    return {
      id: el.id || "",
      region: region ? region.id : "",
      tile: tile ? tile.dataset.tile : "",
      kind: kind,
    };
  }
  live.addEventListener("focusin", function (e) {
    if (e.target !== live) focusKey = keyOf(e.target);
  });
  var FOCUSABLE = "button:not([disabled]), a[href], input:not([type=hidden]), select, textarea";
  function restoreFocus() {
    var now = document.activeElement;
    if (!focusKey || (now && now !== document.body && now.isConnected)) return;
    var k = focusKey;
    var region = k.region && document.getElementById(k.region);
    var found =
      (k.id && document.getElementById(k.id)) ||
      (region && k.tile && region.querySelector('[data-tile="' + k.tile + '"] .' + (k.kind || "tile-button"))) ||
      (region && k.tile && region.querySelector('[data-tile="' + k.tile + '"] button')) ||
      (region && region.querySelector(FOCUSABLE));
    if (!found && region && !region.classList.contains("hidden")) {
      region.setAttribute("tabindex", "-1"); // the region itself: the reader stays where it was
      found = region;
    }
    if (!found) {
      // the region went away (the hand, once it is over): what the table says now
      var status = document.getElementById("status");
      found = status && (status.querySelector(FOCUSABLE) || status);
      if (found === status) status.setAttribute("tabindex", "-1");
    }
    if (found && found.getClientRects().length) {
      found.focus({ preventScroll: true });
      focusKey = k; // a fallback keeps the place it stands for
    }
  }

  // Every move, whose turn it is and the open ends, said politely (the frame's words,
  // in the player's language: #table-head's data-say), once each.
  var said = null;
  function announce(h, first) {
    var region = document.getElementById("announcer");
    var say = h.dataset.say || "";
    if (!region || say === said) return;
    said = say;
    if (!first) region.textContent = say;
  }

  // ---- after every frame (and once on load) ----
  // A move sent waits for its answer: a newer version, or a note saying why not (a frame
  // about something else, e.g. another seat's seed, must not free the hand for a 2nd send).
  function afterFrame(first, answered) {
    var h = head();
    if (first || answered || !h || +h.dataset.version !== sentAt) live.classList.remove("sending");
    if (!h) return;
    if (h.dataset.title) document.title = h.dataset.title;
    // after typed.js has put a box's caret back (its listener comes after this one)
    (window.queueMicrotask || setTimeout)(restoreFocus);
    announce(h, first);
    syncSoundToggle();
    addSeed();
    rememberCommitment();
    var now = {
      key: h.dataset.lastMove || "",
      yourTurn: h.dataset.yourTurn === "1",
      handOver: h.dataset.handOver === "1",
    };
    if (!first && seen) {
      if (now.key && now.key !== seen.key) {
        animateLastMove(h);
        if (h.dataset.lastKind === "play") play("tile");
      }
      if (now.handOver && !seen.handOver) play("over");
      else if (now.yourTurn && !seen.yourTurn) play("turn");
    }
    if (now.key !== (seen && seen.key)) fromRect = null;
    seen = now;
    choose(chosenTile); // the hand was drawn again: keep the choice while the tile can make it
    scheduleFlashHide();
  }

  function scheduleFlashHide() {
    var flash = document.querySelector("#flash .flash");
    clearTimeout(flashTimer);
    if (!flash) return;
    flashTimer = setTimeout(function () {
      if (flash.isConnected) flash.remove();
    }, 6000);
  }

  // A tile that fits both ends: the open ends on the line become targets too.
  function choose(tile) {
    live.querySelectorAll("#hand .my-tile.selected").forEach(function (t) {
      t.classList.remove("selected");
    });
    var item = tile && live.querySelector('#hand .my-tile[data-tile="' + tile + '"]');
    chosenTile = item && item.querySelector(".tile-select") ? tile : null;
    if (chosenTile) item.classList.add("selected");
    live.classList.toggle("choosing", Boolean(chosenTile));
  }

  // ---- the connection ----
  // Closed with 1012 ("service restart"): the server is stopping gracefully (restarted,
  // or one of several going away); htmx's extension reconnects, the banner says why.
  // The attempts to reconnect that fail meanwhile (1006) keep that message.
  var SERVICE_RESTART = 1012;
  var restarting = false;
  function setOffline(value) {
    offline = value;
    live.classList.toggle("offline", value);
    live.dataset.socket = value ? "lost" : "open"; // for the tests: no frame need follow an opening
    var banner = document.getElementById("connection-lost");
    if (!banner) return;
    banner.hidden = !value;
    if (value) banner.textContent = banner.dataset[restarting ? "restarting" : "lost"] || banner.textContent;
  }
  live.addEventListener("htmx:wsClose", function (e) {
    if (e.target !== live) return;
    var closed = e.detail && e.detail.event;
    if (closed && closed.code === SERVICE_RESTART) restarting = true;
    setOffline(true);
  });
  live.addEventListener("htmx:wsError", function (e) {
    if (e.target === live) setOffline(true);
  });
  live.addEventListener("htmx:wsOpen", function (e) {
    if (e.target !== live) return;
    restarting = false;
    setOffline(false); // the server sends on connect what the page does not show
    // a move left unanswered on the old connection was either taken (the view shows it)
    // or never reached the server: either way the hand is free again.  A move tapped
    // before the first opening is still in the extension's queue: it goes now, and waits.
    if (!e.detail.socketWrapper.queue.length) live.classList.remove("sending");
    socket = e.detail.socketWrapper;
    seededFor = {}; // a new connection: send again (the same seed; the server keeps one a seat)
    addSeed(); // no frame may come: the page already shows the table as it is
  });
  // Nothing is queued while offline, and a move is sent once: the hand waits for the next
  // frame.  Marked as it goes to the socket, not once sent: before the socket opens, the
  // extension queues it (and a double tap queued two).
  live.addEventListener("htmx:wsConfigSend", function (e) {
    var typed = e.target.closest("#command-form");
    if (typed && !offline) {
      // sent as typed; the box is empty for the next command (typed.js keeps only new text)
      var box = typed.querySelector("#command");
      if (box) box.value = "";
    }
    var fromHand = e.target.closest("#hand");
    if (offline || (live.classList.contains("sending") && fromHand)) {
      e.preventDefault();
      return;
    }
    if (!fromHand) return;
    live.classList.add("sending");
    sentAt = head() ? +head().dataset.version : -1;
  });

  // Capture: a second click on the hand before the next frame never reaches htmx.
  live.addEventListener(
    "click",
    function (e) {
      var inHand = e.target.closest("#hand button, #board .end-target");
      if (!inHand) return;
      if (offline || live.classList.contains("sending")) {
        e.preventDefault();
        e.stopImmediatePropagation();
        return;
      }
      var tile = e.target.closest("#hand .my-tile") || live.querySelector("#hand .my-tile.selected");
      if (tile) fromRect = tile.getBoundingClientRect();
    },
    true
  );

  live.addEventListener("click", function (e) {
    var toggle = e.target.closest("[data-sound-toggle]");
    if (toggle) {
      setSound(!soundOn());
      if (soundOn()) play("turn");
      return;
    }
    var select = e.target.closest("#hand .tile-select");
    if (select) {
      var tile = select.closest(".my-tile").dataset.tile;
      choose(tile === chosenTile ? null : tile);
      return;
    }
    var target = e.target.closest("#board .end-target");
    if (target) {
      var button = live.querySelector("#hand .my-tile.selected .end-" + target.dataset.end);
      if (button) button.click();
      return;
    }
    var flash = e.target.closest("#flash .flash");
    if (flash) flash.remove();
  });

  // The invite box keeps what is typed in it while frames redraw the lobby
  // (typed.js); once the server says the invitation went out, it is emptied.
  function afterInvite() {
    var done = document.querySelector('#flash .flash[data-done="invite"]:not([data-tidied])');
    var box = document.getElementById("invite-username");
    if (!done) return;
    done.setAttribute("data-tidied", "");
    if (box) box.value = "";
  }

  live.addEventListener("htmx:wsAfterMessage", function (e) {
    afterInvite();
    var message = (e.detail && e.detail.message) || "";
    afterFrame(false, typeof message === "string" && message.indexOf('class="flash ') >= 0);
  });
  afterFrame(true);
})();

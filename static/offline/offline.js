// The offline game's page (templates/games/offline.html): the settings form, the
// table drawn from the worker's frames, and the game kept in this browser after
// every move.  The worker (worker.js) holds the rules, the computer and the
// drawing; this file draws what it sends, sends what the player clicks, keeps the
// game and a short history, and lets a waiting update take over between games.
performance.mark("offline-script");
const config = JSON.parse(document.getElementById("offline-config").textContent);
const words = config.words;
const botDelayScale = config.bot_delay_scale ?? 1; // as the site's (a page kept from before: 1)
const GAME = "domino.offline.game"; // {settings, saved}: the game in progress (or just ended)
const HISTORY = "domino.offline.history"; // finished games, newest first
const START = "domino.offline.start"; // settings to start with once an update took over
const CHOICES = "domino.offline.choices"; // the player's choices at the table (forced moves…)
const KEEP = 10;

const main = document.querySelector("main");
const setup = document.getElementById("offline-setup");
const live = document.getElementById("offline-table");
const bar = document.getElementById("offline-bar");
const form = document.getElementById("offline-form");
const startButton = document.getElementById("offline-start");
const loading = document.getElementById("offline-loading");

let worker = null;
let ready = false;
let waiting = []; // messages for the worker before it is ready
let computerTimer = null;
let forcedTimer = null; // the player's only move, played for them when its countdown ends
let settings = null; // the current game's settings (the rematch's too)

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch (error) {
    return null;
  }
}

function keep(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    // storage full or refused: the game goes on, it is only not kept
  }
}

// ---- the worker ----
function send(message) {
  if (ready) worker.postMessage(message);
  else waiting.push(message);
}

function startWorker() {
  worker = new Worker(config.worker, { type: "module" });
  worker.onmessage = (event) => receive(event.data);
  worker.onerror = (event) => failed(event.message || "worker");
  worker.postMessage({
    type: "boot",
    pyodide: config.pyodide,
    python: config.python,
    engine: config.engine,
    language: config.language,
    urls: config.urls,
  });
}

function receive(message) {
  if (message.type === "ready") {
    ready = true;
    performance.mark("offline-ready", { detail: message.timings });
    document.documentElement.dataset.offlineReady = "1";
    if (startButton) startButton.disabled = false;
    if (loading) loading.hidden = true;
    waiting.forEach((m) => worker.postMessage(m));
    waiting = [];
  } else if (message.type === "failed") {
    failed(message.error);
  } else if (message.type === "frame") {
    draw(JSON.parse(message.frame), message);
  }
}

function failed(error) {
  console.error("offline game:", error);
  const note = document.createElement("p");
  note.className = "flash error";
  note.textContent = words.failed;
  if (!live.hidden) live.replaceChildren(note); // where the table would be
  else if (loading) {
    loading.hidden = false;
    loading.replaceChildren(note);
  }
}

// ---- drawing a frame ----
function showTable() {
  setup.hidden = true;
  live.hidden = false;
  bar.hidden = false;
  main.className = "table-page offline-page";
}

function showSetup() {
  clearTimeout(computerTimer);
  clearTimeout(forcedTimer);
  live.hidden = true;
  live.innerHTML = "";
  bar.hidden = true;
  setup.hidden = false;
  main.className = "page offline-page";
  drawHistory();
}

function draw(frame, message) {
  if (frame.error) {
    localStorage.removeItem(GAME); // a kept game that cannot be read back: start again
    showSetup();
    return;
  }
  if (frame.page !== undefined) {
    live.innerHTML = frame.page;
    showTable();
  } else {
    for (const [id, html] of Object.entries(frame.regions)) {
      const region = document.getElementById(id);
      if (region) region.outerHTML = html;
    }
    const flash = document.getElementById("flash");
    if (flash) flash.innerHTML = frame.flash ? new DOMParser()
      .parseFromString(frame.flash, "text/html").getElementById("flash").innerHTML : "";
  }
  live.querySelector("#replay")?.remove(); // the site's replays are of its own tables
  keep(GAME, { settings, saved: frame.saved });
  if (frame.choices) keep(CHOICES, frame.choices);
  if (frame.over) archive(frame.saved, frame.summary);
  // table.js: title, sounds, animation; a note (flash) answers a move as a new version does
  live.dispatchEvent(new CustomEvent("htmx:wsAfterMessage", { detail: { message: frame.flash || "" } }));
  document.documentElement.dataset.offlineVersion = String(frame.version);
  performance.mark("offline-frame", {
    detail: { asked: message.asked, thought: frame.thought_ms, forced: frame.thought_forced },
  });
  requestAnimationFrame(() => performance.mark("offline-drawn")); // the frame on the screen
  performance.measure("offline-" + message.asked, { start: performance.now() - message.ms, duration: message.ms });
  clearTimeout(computerTimer);
  clearTimeout(forcedTimer);
  if (frame.computer_ms !== null) {
    const thinking = frame.computer_ms * botDelayScale;
    computerTimer = setTimeout(() => send({ type: "computer" }), thinking);
  }
  if (frame.forced_ms !== null && frame.forced_ms !== undefined) {
    const version = frame.version;
    forcedTimer = setTimeout(() => send({ type: "forced", version }), frame.forced_ms);
  }
}

// ---- the player's clicks: the same buttons as at the site's tables ----
live.addEventListener("click", (event) => {
  if (event.target.closest("#rematch")) {
    event.preventDefault();
    newGame(settings);
    return;
  }
  const button = event.target.closest("[ws-send]");
  if (!button || !live.contains(button) || button.tagName === "FORM") return; // a form: its submit
  event.preventDefault();
  send({ type: "command", vals: button.getAttribute("hx-vals") || "{}" });
  // table.js: one move at a time, the hand waits for the next frame (as htmx's ws
  // extension announces a send)
  button.dispatchEvent(new CustomEvent("htmx:wsConfigSend", { bubbles: true }));
});

// The typed commands' form (the table as text): sent as the site's is, its words with it.
live.addEventListener("submit", (event) => {
  const form = event.target.closest("form[ws-send]");
  if (!form || !live.contains(form)) return;
  event.preventDefault();
  const vals = { ...JSON.parse(form.getAttribute("hx-vals") || "{}"), ...Object.fromEntries(new FormData(form)) };
  send({ type: "command", vals: JSON.stringify(vals) });
  form.dispatchEvent(new CustomEvent("htmx:wsConfigSend", { bubbles: true })); // table.js empties the box
});

// ---- games: new, kept, finished ----
function start(chosen) {
  settings = chosen;
  localStorage.removeItem(GAME);
  live.innerHTML = '<p class="muted offline-wait" role="status">' + words.loading + "</p>";
  showTable();
  send({ type: "start", settings: JSON.stringify(chosen), choices: JSON.stringify(read(CHOICES) || {}) });
}

// A new version of the site waiting in the browser takes over between games, never mid-game.
function newGame(chosen) {
  clearTimeout(computerTimer);
  clearTimeout(forcedTimer);
  const sw = navigator.serviceWorker;
  if (!sw || !sw.controller) return start(chosen);
  sw.getRegistration().then((registration) => {
    if (!registration || !registration.waiting) return start(chosen);
    sessionStorage.setItem(START, JSON.stringify(chosen));
    localStorage.removeItem(GAME);
    sw.addEventListener("controllerchange", () => location.reload());
    registration.waiting.postMessage("skip-waiting");
  });
}

function archive(saved, summary) {
  const history = read(HISTORY) || [];
  if (history.some((game) => game.started === saved.started)) return;
  history.unshift({ ...summary, started: saved.started, finished: Date.now() });
  keep(HISTORY, history.slice(0, KEEP));
}

function drawHistory() {
  const section = document.getElementById("offline-history");
  const history = read(HISTORY) || [];
  section.hidden = !history.length;
  const list = section.querySelector("ol");
  list.replaceChildren(
    ...history.map((game) => {
      const item = document.createElement("li");
      const outcome = game.drawn ? words.drawn : game.won ? words.won : words.lost;
      const when = new Date(game.finished).toLocaleString(config.language);
      item.className = game.won ? "won" : "";
      item.textContent = `${game.description} · ${game.score} · ${outcome} · ${when}`;
      return item;
    })
  );
}

// ---- the settings form: the site's new-table form, its choices changed here ----
function formSettings() {
  const data = new FormData(form);
  return {
    preset: data.get("preset"),
    seating: data.get("seating"),
    hand_size: data.get("hand_size"),
    draw: data.get("draw"),
    target: data.get("target"),
    level: data.get("bot_level"),
  };
}

function offerChoices(changed) {
  const preset = form.elements.preset.value;
  const key = `${preset}|${form.elements.seating.value}|${form.elements.hand_size.value}`;
  const state = (changed !== "preset" && config.forms[key]) || config.forms[preset];
  for (const name of ["seating", "hand_size", "draw", "target"]) {
    const select = form.elements[name];
    const before = changed === "preset" ? state[name].value : select.value;
    select.replaceChildren(...state[name].choices.map(([value, label]) => new Option(label, value)));
    const offered = state[name].choices.some(([value]) => value === before);
    select.value = offered ? before : state[name].value;
  }
}

if (form) {
  form.addEventListener("change", (event) => {
    if (["preset", "seating", "hand_size"].includes(event.target.name)) offerChoices(event.target.name);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    newGame(formSettings());
  });
  offerChoices("preset");
}

document.getElementById("offline-new").addEventListener("click", () => {
  if (!confirm(words.confirm_new)) return;
  localStorage.removeItem(GAME);
  showSetup();
});

// ---- the page opens: the kept game where it was, or the form ----
startWorker();
const queued = sessionStorage.getItem(START);
const kept = read(GAME);
if (queued) {
  sessionStorage.removeItem(START);
  start(JSON.parse(queued));
} else if (kept && kept.saved) {
  settings = kept.settings;
  live.innerHTML = '<p class="muted offline-wait" role="status">' + words.loading + "</p>";
  showTable();
  send({ type: "resume", saved: JSON.stringify(kept.saved), choices: JSON.stringify(read(CHOICES) || {}) });
} else {
  showSetup();
}

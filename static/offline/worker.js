// The offline game's Web Worker: CPython (Pyodide) running the site's own engine,
// bots and live templates (games/offline/), off the page's main thread, so the
// table never freezes while the computer thinks.  The page sends commands; every
// answer is a frame (JSON, games/offline/app.py) the page draws and keeps.
let session = null;
let keepSnapshot = null; // after the first frame: the next start restores this one

// Where the start's time goes (the benchmark reads them): the worker's marks, sent
// with "ready" on the worker's clock, which begins at performance.timeOrigin.
function mark(name) {
  performance.mark("offline-" + name);
}

function marks() {
  const found = {};
  for (const entry of performance.getEntriesByType("mark")) {
    if (entry.name.startsWith("offline-")) found[entry.name.slice(8)] = entry.startTime;
  }
  return { origin: performance.timeOrigin, marks: found };
}

// What a started CPython keeps in its snapshot: the game's modules, imported (in the
// page's language: the snapshot is made for one).
const imports = (language) => `
import sys
from pathlib import Path
sys.path.insert(0, "/offline")
from games.offline import django_shim
django_shim.install()
django_shim.activate(${JSON.stringify(language)}, Path("/offline/locale"))
import games.offline.app
`;

// CPython with the engine's files, from the kept snapshot when there is one.
async function python({ pyodide, python, engine, language }) {
  const zip = fetch(engine).then((response) => {
    if (!response.ok) throw new Error("the engine's file: " + response.status);
    return response.arrayBuffer();
  });
  const loader = await import(python);
  mark("loader-imported");
  const key = [pyodide, engine, python, self.location.pathname, language].join(" "); // this deploy's, this language's
  const start = () =>
    loader.startPython({
      indexURL: pyodide,
      key,
      setUp: async (py) => {
        py.unpackArchive(await zip, "zip", { extractDir: "/offline" });
        mark("engine-unpacked");
      },
      warm: (py) => py.runPython(imports(language)),
      mark,
    });
  return { loader, key, start };
}

// During an online visit to any page (install.js), once the page is usable: the
// snapshot made now, so that the first start with no connection restores it.
async function prepare(message) {
  mark("prepare");
  const { loader, key, start } = await python(message);
  if (await loader.hasSnapshot(key)) return false;
  const started = await start();
  mark("snapshot-made");
  await started.keep();
  mark("snapshot-kept");
  return true;
}

async function boot(message) {
  mark("boot");
  const { language } = message;
  const started = await (await python(message)).start();
  mark(started.restored ? "restored" : "engine-imported");
  const py = started.py;
  py.runPython(`
import random
from pathlib import Path
from games.offline import django_shim
random.seed()  # a restored interpreter would repeat the snapshot's sequence
django_shim.activate(${JSON.stringify(language)}, Path("/offline/locale"))
`);
  const app = py.pyimport("games.offline.app");
  app.boot("/offline", JSON.stringify(message.urls));
  session = app.session;
  keepSnapshot = started.keep;
  mark("ready");
}

function answer(message) {
  switch (message.type) {
    case "start":
      return session.start(message.settings, message.choices || "{}");
    case "resume":
      return session.resume(message.saved, message.choices || "{}");
    case "command":
      return session.command(message.vals);
    case "computer":
      return session.computer();
    case "forced":
      return session.forced(message.version);
  }
  throw new Error("unknown message " + message.type);
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "prepare") {
    try {
      const made = await prepare(message);
      self.postMessage({ type: "prepared", made, timings: marks() });
    } catch (error) {
      self.postMessage({ type: "failed", error: String(error) });
    }
    return;
  }
  if (message.type === "boot") {
    try {
      await boot(message);
      self.postMessage({ type: "ready", timings: marks() });
    } catch (error) {
      self.postMessage({ type: "failed", error: String(error) });
    }
    return;
  }
  const started = performance.now();
  try {
    const frame = answer(message);
    self.postMessage({ type: "frame", frame, ms: performance.now() - started, asked: message.type });
  } catch (error) {
    self.postMessage({ type: "failed", error: String(error) });
  }
  if (keepSnapshot) {
    const keep = keepSnapshot;
    keepSnapshot = null;
    setTimeout(keep, 0); // once the first frame is sent: the player does not wait for it
  }
};

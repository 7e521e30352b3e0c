// The offline game's Web Worker: CPython (Pyodide) running the site's own engine,
// bots and live templates (games/offline/), off the page's main thread, so the
// table never freezes while the computer thinks.  The page sends commands; every
// answer is a frame (JSON, games/offline/app.py) the page draws and keeps.
let session = null;

async function boot({ pyodide, engine, language, urls }) {
  const started = performance.now();
  const zip = fetch(engine).then((response) => {
    if (!response.ok) throw new Error("the engine's file: " + response.status);
    return response.arrayBuffer();
  });
  const { loadPyodide } = await import(pyodide + "pyodide.mjs");
  const py = await loadPyodide({ indexURL: pyodide });
  const loaded = performance.now();
  py.unpackArchive(await zip, "zip", { extractDir: "/offline" });
  py.runPython(`
import sys
from pathlib import Path
sys.path.insert(0, "/offline")
from games.offline import stand_in
stand_in.install()
stand_in.activate(${JSON.stringify(language)}, Path("/offline/locale"))
from games.offline import app
`);
  const app = py.pyimport("games.offline.app");
  app.boot("/offline", JSON.stringify(urls));
  session = app.session;
  return { pyodide_ms: loaded - started, engine_ms: performance.now() - loaded };
}

function answer(message) {
  switch (message.type) {
    case "start":
      return session.start(message.settings);
    case "resume":
      return session.resume(message.saved);
    case "command":
      return session.command(message.vals);
    case "computer":
      return session.computer();
  }
  throw new Error("unknown message " + message.type);
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "boot") {
    try {
      const timings = await boot(message);
      self.postMessage({ type: "ready", timings });
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
};

// The offline worker's start (static/offline/python.js) under Node: a first start
// that makes the memory snapshot and keeps it, a second that restores it and plays,
// and a start for another deploy, which must not restore the first's.  Cache Storage
// is a map here.
//   node snapshot.mjs <pyodide folder> <engine zip> <python.js>
import { readFileSync } from "node:fs";

const [folder, zip, module] = process.argv.slice(2);
const indexURL = folder.endsWith("/") ? folder : folder + "/";
const stored = new Map();
const cache = {
  match: async (request) => stored.get(request.url),
  keys: async () => [...stored.keys()].map((url) => new Request(url)),
  delete: async (request) => stored.delete(request.url),
  put: async (request, response) => stored.set(request.url, new Response(await response.arrayBuffer())),
};
globalThis.caches = { open: async () => cache, delete: async () => stored.clear() };
globalThis.self = { location: new URL("http://localhost/offline/") };

const { startPython } = await import(module);
const files = new Uint8Array(readFileSync(zip));
const setUp = (py) => py.unpackArchive(files, "zip", { extractDir: "/offline" });
const warm = (py) =>
  py.runPython(`
import sys
from pathlib import Path
sys.path.insert(0, "/offline")
from games.offline import django_shim
django_shim.install()
django_shim.activate("it", Path("/offline/locale"))
import games.offline.app
`);
const settings = { preset: "duello", seating: "2", hand_size: "7", draw: "yes", target: "100", level: "easy" };

const first = await startPython({ indexURL, key: "deploy-1 it", setUp, warm });
await first.keep();
let warmed = false;
const second = await startPython({ indexURL, key: "deploy-1 it", setUp, warm: (py) => (warmed = true) });
const app = second.py.pyimport("games.offline.app");
app.boot("/offline", JSON.stringify({ home: "/", rules: "/rules/{}/" }));
const frame = JSON.parse(app.session.start(JSON.stringify(settings)));
const other = await startPython({ indexURL, key: "deploy-2 it", setUp, warm });
console.log(
  JSON.stringify({
    first: first.restored,
    second: second.restored,
    warmed_again: warmed,
    page: frame.page,
    other: other.restored,
    kept: stored.size,
  })
);

// Starting CPython for the offline game's worker, from a memory snapshot when this
// browser has one: the interpreter and the game's modules already imported, as the
// first start left them, instead of starting CPython and importing them again
// (seconds on a slow machine).  Pyodide's snapshots are private in 314.0.8
// (_makeSnapshot, makeMemorySnapshot, _loadSnapshot), and restoring one needs the
// module's memory grown first (createPyodideModule, Module.growMemory): every use of
// them is in this file, and tests/offline/test_snapshot.py fails when they change.
// Anything amiss with a kept snapshot: it is dropped and CPython starts as usual.
const CACHE = "domino-python-snapshot"; // one snapshot, for one deploy and one language

function snapshotRequest(key) {
  return new Request(new URL("/offline/python-snapshot/" + encodeURIComponent(key), self.location));
}

async function readSnapshot(key) {
  try {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(snapshotRequest(key));
    return kept ? new Uint8Array(await kept.arrayBuffer()) : null;
  } catch (error) {
    return null; // no Cache Storage here (a private window, storage refused)
  }
}

// Whether this browser keeps a snapshot for `key` (without reading its megabytes).
export async function hasSnapshot(key) {
  try {
    const cache = await caches.open(CACHE);
    return Boolean(await cache.match(snapshotRequest(key)));
  } catch (error) {
    return false;
  }
}

async function keepSnapshot(key, snapshot) {
  try {
    const cache = await caches.open(CACHE);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(snapshotRequest(key), new Response(snapshot));
  } catch (error) {
    // storage full or refused: the next start is only slower
  }
}

async function restore(loadPyodide, indexURL, snapshot) {
  const { default: createModule } = await import(indexURL + "pyodide.asm.mjs");
  return loadPyodide({
    indexURL,
    _loadSnapshot: snapshot,
    createPyodideModule: async (settings) => {
      const module = await createModule(settings);
      module.growMemory(snapshot.byteLength); // the memory the snapshot is copied into
      return module;
    },
  });
}

// CPython with `setUp(py)` done (it is run at every start: the files) and `warm(py)`
// (run once, its result kept in the snapshot: the imports).  `key` names what the
// snapshot holds: a new deploy or another language makes a new one.
export async function startPython({ indexURL, key, setUp, warm, mark = () => {} }) {
  const [{ loadPyodide }, kept] = await Promise.all([
    import(indexURL + "pyodide.mjs"),
    readSnapshot(key),
  ]);
  mark("snapshot-read");
  if (kept) {
    try {
      const py = await restore(loadPyodide, indexURL, kept);
      mark("python-started");
      await setUp(py);
      return { py, restored: true, keep: async () => {} };
    } catch (error) {
      console.warn("offline game: the kept snapshot did not start", error);
      await caches.delete(CACHE).catch(() => {});
    }
  }
  const py = await loadPyodide({ indexURL, _makeSnapshot: true });
  mark("python-started");
  await setUp(py);
  await warm(py);
  let snapshot = null;
  try {
    snapshot = py.makeMemorySnapshot();
  } catch (error) {
    console.warn("offline game: no snapshot", error);
  }
  return { py, restored: false, keep: async () => snapshot && keepSnapshot(key, snapshot) };
}

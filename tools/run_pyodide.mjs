// Run Python under Pyodide in Node, as the offline page's worker does in a browser:
// the vendored Pyodide, the engine's zip unpacked at /offline, then a script
// (tools/run_pyodide.py runs it for the tests and the benchmarks).
//   node tools/run_pyodide.mjs <pyodide folder> <engine zip> <script.py>
// The script's output is printed; a Python error exits with status 1.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [folder, zip, script] = process.argv.slice(2);
const base = folder.endsWith("/") ? folder : folder + "/";
const { loadPyodide } = await import(pathToFileURL(base + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL: base });
py.unpackArchive(new Uint8Array(readFileSync(zip)), "zip", { extractDir: "/offline" });
try {
  py.runPython("import sys; sys.path.insert(0, '/offline')\n" + readFileSync(script, "utf8"));
} catch (error) {
  console.error(String(error));
  process.exit(1);
}

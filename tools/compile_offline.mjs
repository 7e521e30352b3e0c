// Compile the offline zip's Python to CPython 3.14 bytecode with Pyodide under Node
// (tools/build_offline.py): the browser then imports it without compiling first.
//   node tools/compile_offline.mjs <pyodide folder> <source zip> <compiled zip>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [folder, source, target] = process.argv.slice(2);
const base = folder.endsWith("/") ? folder : folder + "/";
const { loadPyodide } = await import(pathToFileURL(base + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL: base });
py.FS.writeFile("/source.zip", new Uint8Array(readFileSync(source)));
py.runPython(`
import compileall, py_compile, zipfile
with zipfile.ZipFile("/source.zip") as archive:
    archive.extractall("/offline")
    names = archive.namelist()
# unchecked: the zip's files are unpacked with new times, which must not invalidate them
ok = compileall.compile_dir("/offline", quiet=2,
    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
assert ok, "a module did not compile"
import os
found = []
for top, dirs, files in os.walk("/offline"):
    for name in files:
        found.append(os.path.join(top, name)[len("/offline/"):])
with zipfile.ZipFile("/compiled.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for name in sorted(found):
        entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = 0o644 << 16
        with open("/offline/" + name, "rb") as f:
            out.writestr(entry, f.read())
`);
writeFileSync(target, py.FS.readFile("/compiled.zip"));

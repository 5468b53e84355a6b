// Builds the playground into dist/: one esbuild bundle (CodeMirror, the gallery, the page) plus
// the ingress-router package's .wasm, copied next to the bundle so that the package finds it
// relative to the script (`new URL("….wasm", import.meta.url)`). Nothing is loaded from elsewhere.
import { build } from "esbuild";
import { copyFile, mkdir, readdir, realpath, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

await build({
  entryPoints: [join(here, "src/main.js")],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: true,
  outfile: join(dist, "app.js"),
  loader: { ".yaml": "text" },
  logLevel: "warning",
});

await copyFile(join(here, "src/index.html"), join(dist, "index.html"));
await copyFile(join(here, "src/favicon.svg"), join(dist, "favicon.svg"));

// The package's WebAssembly module(s).
const pkg = await realpath(join(here, "node_modules/ingress-router"));
async function wasmFiles(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== "node_modules") found.push(...(await wasmFiles(join(dir, entry.name))));
    else if (entry.name.endsWith(".wasm")) found.push(join(dir, entry.name));
  }
  return found;
}
const wasm = await wasmFiles(pkg);
if (wasm.length === 0) throw new Error(`no .wasm in ${pkg}: build the package first (make pkg)`);
for (const file of wasm) await copyFile(file, join(dist, file.split("/").pop()));
console.log(`built ${dist}`);

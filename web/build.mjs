// Builds the playground into dist/: esbuild bundles (the page with CodeMirror and the gallery in
// app.js; the ingress-router package in chunks of its own, imported by start.js as the page starts)
// and the package's .wasm next to them. The package finds its .wasm with
// `new URL("….wasm", import.meta.url)`, which esbuild leaves as it is; the plugin below copies each
// such file next to the bundle and points the URL there. index.html gets preload links for the
// package's chunks and its first .wasm, so that they download beside app.js, not after it.
// Nothing is loaded from elsewhere.
import { build } from "esbuild";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const WASM_URL = /new URL\(\s*(["'])([^"']+\.wasm)\1\s*,\s*import\.meta\.url\s*\)/g;

const copied = new Set();
const wasmAssets = {
  name: "wasm-assets",
  setup(b) {
    b.onLoad({ filter: /\.m?js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(".wasm")) return undefined;
      const jobs = [];
      const contents = source.replace(WASM_URL, (_, quote, relative) => {
        const file = resolve(dirname(args.path), relative);
        const name = basename(file);
        if (!copied.has(name)) {
          copied.add(name);
          jobs.push(copyFile(file, join(dist, name)));
        }
        return `new URL(${quote}./${name}${quote}, import.meta.url)`;
      });
      await Promise.all(jobs);
      return { contents, loader: "js" };
    });
  },
};

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const { metafile } = await build({
  entryPoints: { app: join(here, "src/main.js") },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: !process.env.NO_MINIFY,
  sourcemap: true,
  outdir: dist,
  chunkNames: "[name]-[hash]",
  metafile: true,
  loader: { ".yaml": "text" },
  plugins: [wasmAssets],
  logLevel: "warning",
});
if (copied.size === 0) throw new Error("the bundle references no .wasm: is the ingress-router package built (make pkg)?");

// What the page needs at once besides app.js: the chunk holding the package's browser entry (its
// first module's glue; start.js imports it) and the chunks it imports statically, and that
// module's .wasm. The second module (load()) is not preloaded: most pages never fetch it.
const outputs = metafile.outputs;
const entryChunk = Object.keys(outputs).find((o) => Object.keys(outputs[o].inputs).some((i) => /ingress-router\/dist\/browser\.js$|pkg\/dist\/browser\.js$/.test(i)));
if (!entryChunk) throw new Error("no chunk holds the ingress-router package's browser entry");
const chunks = new Set();
const visit = (o) => {
  if (chunks.has(o) || basename(o) === "app.js") return;
  chunks.add(o);
  for (const i of outputs[o].imports) if (i.kind === "import-statement") visit(i.path);
};
visit(entryChunk);
// …and the chunk start.js's import() names (it re-exports the package from the chunks above).
for (const i of outputs[Object.keys(outputs).find((o) => basename(o) === "app.js")].imports) {
  if (i.kind === "dynamic-import" && !/engines/.test(i.path)) visit(i.path);
}
const preloads = [
  ...[...chunks].map((o) => `<link rel="modulepreload" href="${basename(o)}">`),
  `<link rel="preload" href="ingress_router_bg.wasm" as="fetch" type="application/wasm" crossorigin>`,
];
const html = await readFile(join(here, "src/index.html"), "utf8");
const script = `<script type="module" src="app.js"></script>`;
if (!html.includes(script)) throw new Error(`src/index.html has no ${script}`);
await writeFile(join(dist, "index.html"), html.replace(script, [script, ...preloads].join("\n")));
await copyFile(join(here, "src/favicon.svg"), join(dist, "favicon.svg"));
console.log(`built ${dist} (${[...copied].join(", ")})`);

// Builds the playground into dist/: one esbuild bundle (CodeMirror, the gallery, the page) and
// the ingress-router package's .wasm next to it. The package finds its .wasm with
// `new URL("….wasm", import.meta.url)`, which esbuild leaves as it is; the plugin below copies each
// such file next to the bundle and points the URL there. Nothing is loaded from elsewhere.
import { build } from "esbuild";
import { copyFile, mkdir, readFile, rm } from "node:fs/promises";
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

await build({
  entryPoints: [join(here, "src/main.js")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: !process.env.NO_MINIFY,
  sourcemap: true,
  outfile: join(dist, "app.js"),
  loader: { ".yaml": "text" },
  plugins: [wasmAssets],
  logLevel: "warning",
});
if (copied.size === 0) throw new Error("the bundle references no .wasm: is the ingress-router package built (make pkg)?");

await copyFile(join(here, "src/index.html"), join(dist, "index.html"));
await copyFile(join(here, "src/favicon.svg"), join(dist, "favicon.svg"));
console.log(`built ${dist} (${[...copied].join(", ")})`);

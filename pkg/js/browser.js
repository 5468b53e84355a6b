// Browser and bundler entry: the module is fetched from beside this file and instantiated before
// the import completes (top-level await), so `compile` is ready to call. Bundlers that rewrite
// `new URL(..., import.meta.url)` (Vite, webpack, Parcel, Rollup with a plugin) emit the .wasm
// themselves; with esbuild, copy `ingress_router_bg.wasm` next to the bundle.
import { start } from "./instance.js";
import { ready } from "./api.js";
import { IngressRouterError } from "./error.js";

const url = new URL("ingress_router_bg.wasm", import.meta.url);
try {
  await start(url);
} catch (e) {
  throw new IngressRouterError(
    `ingress-router: cannot load ${url}: ${e && e.message}. Serve ingress_router_bg.wasm beside the module ` +
      "that imports it, as application/wasm (with esbuild: copy node_modules/ingress-router/dist/ingress_router_bg.wasm next to the bundle).",
    { kind: "load" },
  );
}
ready();

export * from "./api.js";

// Browser and bundler entry: the first module is fetched from beside this file and instantiated
// before the import completes (top-level await), so `compile` is ready to call. The second (the
// ingress-nginx profile and the Gateway API), with its glue, is fetched by load(): a page that
// never needs it never downloads it. Bundlers that rewrite `new URL(..., import.meta.url)` (Vite,
// webpack, Parcel, Rollup with a plugin) emit both .wasm files themselves; with esbuild, copy
// `ingress_router_bg.wasm` and `ingress_router_engines_bg.wasm` next to the bundle.
import { createGlue } from "./ingress_router.js";
import { answering, startFrom as start } from "./instance.js";
import { ready } from "./api.js";

ready(await start(answering(createGlue), new URL("ingress_router_bg.wasm", import.meta.url)), {
  load: async () => {
    const glue = await import("./ingress_router_engines.js");
    return start(glue.createGlue, new URL("ingress_router_engines_bg.wasm", import.meta.url));
  },
});

export * from "./api.js";

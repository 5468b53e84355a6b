// Route-only entry (`ingress-router/route-only`) for browsers and bundlers: for a page that routes
// with a precompiled table (`ingress-router compile -o table.bin`, or `router.toTable()`). Only the
// small route-only module is fetched before the import completes; `loadTable(bytes)` gives a Router
// whose route(), explain() and table() answer as the compiled one's. The rest of the API is the
// same as the main entry's: a call that reads manifests (compile(), validate(), ...) needs the full
// module, fetched by `await load()` once, as the main entry's engines are.
import { createGlue } from "./ingress_router_route.js";
import { answering, startFrom } from "./instance.js";
import { ready } from "./api.js";

ready(
  await startFrom(answering(createGlue), new URL("ingress_router_route_bg.wasm", import.meta.url)),
  {
    load: async () => {
      const glue = await import("./ingress_router_engines.js");
      return startFrom(glue.createGlue, new URL("ingress_router_engines_bg.wasm", import.meta.url));
    },
  },
  { routeOnly: true },
);

export * from "./api.js";

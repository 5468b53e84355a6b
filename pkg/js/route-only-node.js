// Route-only entry (`ingress-router/route-only`) for Node: the route-only module is read and
// instantiated on import; a call that reads manifests loads the full module then, synchronously,
// as the main entry loads its engines.
import { readFileSync } from "node:fs";
import { createGlue } from "./ingress_router_route.js";
import { createGlue as createEnginesGlue } from "./ingress_router_engines.js";
import { WasmModule, answering } from "./instance.js";
import { ready } from "./api.js";

// The table's hash seed comes from crypto.getRandomValues: global from Node 19, not in Node 18.
if (!globalThis.crypto?.getRandomValues) globalThis.crypto = (await import("node:crypto")).webcrypto;

const compiled = (file) => new WebAssembly.Module(readFileSync(new URL(file, import.meta.url)));
const loadSync = () => new WasmModule(createEnginesGlue).startSync(compiled("ingress_router_engines_bg.wasm"));

ready(new WasmModule(answering(createGlue)).startSync(compiled("ingress_router_route_bg.wasm")), { loadSync, load: async () => loadSync() }, { routeOnly: true });

export * from "./api.js";

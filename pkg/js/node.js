// Node entry: the first module is read, compiled and instantiated synchronously on import; no
// init() to call. The second (the ingress-nginx profile and the Gateway API) is read the same way
// the first time a call needs it, or by load().
import { readFileSync } from "node:fs";
import { createGlue } from "./ingress_router.js";
import { createGlue as createEnginesGlue } from "./ingress_router_engines.js";
import { WasmModule, answering } from "./instance.js";
import { ready } from "./api.js";

// The table's hash seed comes from crypto.getRandomValues: global from Node 19, not in Node 18.
if (!globalThis.crypto?.getRandomValues) globalThis.crypto = (await import("node:crypto")).webcrypto;

const compiled = (file) => new WebAssembly.Module(readFileSync(new URL(file, import.meta.url)));
const loadSync = () => new WasmModule(createEnginesGlue).startSync(compiled("ingress_router_engines_bg.wasm"));

ready(new WasmModule(answering(createGlue)).startSync(compiled("ingress_router_bg.wasm")), {
  loadSync,
  load: async () => loadSync(),
});

export * from "./api.js";

// Node entry: the module is read and instantiated synchronously on import; no init() to call.
import { readFileSync } from "node:fs";
import { initSync } from "./ingress_router.js";
import { ready } from "./api.js";

// The table's hash seed comes from crypto.getRandomValues: global from Node 19, not in Node 18.
if (!globalThis.crypto?.getRandomValues) globalThis.crypto = (await import("node:crypto")).webcrypto;

initSync({ module: readFileSync(new URL("ingress_router_bg.wasm", import.meta.url)) });
ready();

export * from "./api.js";

// Node entry: the module is read, compiled and instantiated synchronously on import; no init() to call.
import { readFileSync } from "node:fs";
import { startSync } from "./instance.js";
import { ready } from "./api.js";

// The table's hash seed comes from crypto.getRandomValues: global from Node 19, not in Node 18.
if (!globalThis.crypto?.getRandomValues) globalThis.crypto = (await import("node:crypto")).webcrypto;

startSync(new WebAssembly.Module(readFileSync(new URL("ingress_router_bg.wasm", import.meta.url))));
ready();

export * from "./api.js";

// Node entry: the module is read and instantiated synchronously on import; no init() to call.
import { readFileSync } from "node:fs";
import { initSync } from "./ingress_router.js";
import { ready } from "./api.js";

initSync({ module: readFileSync(new URL("ingress_router_bg.wasm", import.meta.url)) });
ready();

export * from "./api.js";

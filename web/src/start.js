// Evaluated before the rest of the page (main.js imports it first): the package's first module
// is fetched, compiled and instantiated (its module's top-level await), and a shared link's state
// decoded, while CodeMirror's modules are evaluated and the editor made. index.html preloads the
// .wasm and the package's chunk, so both downloads start with the page's script.
import { decodeState } from "./share.js";

/** The package's exports, once its first module is instantiated. */
export const packageReady = import("ingress-router");

/** The state a shared link (`#s=…`) holds: `{ saved }` (null: none), or `{ error }` when it is damaged. */
export const restoring = decodeState(location.hash).then(
  (saved) => ({ saved }),
  (error) => ({ error }),
);


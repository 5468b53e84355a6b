// The WebAssembly instance behind the package, and what happens when it traps. A trap (a Rust
// panic is `unreachable` on wasm32) should never happen; if one does, the instance is left in an
// undefined state (borrows held, its stack pointer not restored), so it is never called again: the
// compiled module is instantiated anew with a fresh copy of the glue, and the failed call throws.
import { createGlue } from "./ingress_router.js";
import { IngressRouterError } from "./error.js";

let module; // the compiled WebAssembly.Module, kept to instantiate it again
let current = null; // the live instance: { glue, live }
let broken = null; // why no instance could be made again, when that failed

function adopt(glue) {
  glue.setErrorClass(IngressRouterError);
  current = { glue, live: true };
}

/** Node's entry: instantiates the compiled module now. */
export function startSync(compiled) {
  module = compiled;
  const glue = createGlue();
  glue.initSync({ module });
  adopt(glue);
}

/** The browser entry: fetches, compiles and instantiates the .wasm at `url`. */
export async function start(url) {
  const glue = createGlue();
  await glue.init({ module_or_path: url });
  module = glue.module;
  adopt(glue);
}

/** The live instance, for a new call of `op`. */
function live(op) {
  if (current) return current;
  throw new IngressRouterError(
    broken
      ? `ingress-router: ${op}(): the WebAssembly module could not be instantiated again after an internal error: ${broken}`
      : `ingress-router: ${op}(): the WebAssembly module is being instantiated again after an internal error; try again in a moment`,
    { kind: "internal" },
  );
}

/** Runs `call` on the live instance; a trap becomes an IngressRouterError. */
export function run(op, call) {
  const instance = live(op);
  try {
    return call(instance.glue, instance);
  } catch (e) {
    throw contained(instance, op, e);
  }
}

/**
 * What a call of `op` on `instance` that threw `e` throws: `e` itself, or, when it is a trap (or
 * the engine's stack overflow, which leaves the instance as broken), an IngressRouterError
 * ("internal"), once the instance is replaced.
 */
export function contained(instance, op, e) {
  if (!(e instanceof WebAssembly.RuntimeError || e instanceof RangeError)) return e;
  if (instance.live) {
    instance.live = false;
    if (instance === current) renew();
  }
  return new IngressRouterError(
    `ingress-router: ${op}() failed inside the WebAssembly module (${e}). This is a bug in ingress-router: ` +
      "please report it with the input that caused it. The WebAssembly instance is replaced by a fresh one: " +
      "routers compiled before are lost (compile again); new calls work.",
    { kind: "internal", cause: e },
  );
}

/** The error of a call on a router whose instance trapped. */
export function lost() {
  return new IngressRouterError(
    "ingress-router: this Router was lost when the WebAssembly module failed (an earlier \"internal\" error): compile again",
    { kind: "lost" },
  );
}

// Synchronously where the platform allows it (Node, browsers), so that the next call works;
// otherwise asynchronously, and calls until then fail with a clear error (live()).
function renew() {
  current = null;
  try {
    const glue = createGlue();
    glue.initSync({ module });
    adopt(glue);
  } catch {
    const glue = createGlue();
    glue.init({ module_or_path: module }).then(
      () => adopt(glue),
      (e) => (broken = e),
    );
  }
}

/** The live instance's memory (for the package's memory test). */
export function memory() {
  return live("memory").glue.initSync().memory;
}

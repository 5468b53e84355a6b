// The WebAssembly modules behind the package, and what happens when one traps. The first module
// routes and checks Ingresses with the specification's semantics; the second adds the optional
// engines (the ingress-nginx profile, the Gateway API) and is loaded the first time a call needs
// it (api.js). A trap (a Rust panic is `unreachable` on wasm32) should never happen; if one does,
// the instance is left in an undefined state (borrows held, its stack pointer not restored), so it
// is never called again: the compiled module is instantiated anew with a fresh copy of the glue,
// and the failed call throws.
import { IngressRouterError } from "./error.js";

/**
 * The package's modules: `first`, started by the entry, and `second`, once loaded (api.js).
 * `firstRouteOnly`: the first is the route-only module (the `route-only` entry).
 */
export const modules = { first: null, second: null, firstRouteOnly: false };

/**
 * A module's glue made to answer like the others': each call its module lacks (the route-only
 * module reads no manifests; the first loads no tables) fails with the `engine` kind, so that
 * api.js runs it in the second module, which has every call.
 */
export function answering(createGlue) {
  const calls = ["compile", "validate", "ingressStatus", "serviceStatus", "runTests", "readTests", "gatewayStatus", "migrate", "convert", "Workspace", "loadTable"];
  return () => {
    const glue = createGlue();
    for (const name of calls) {
      glue[name] ??= function () {
        throw new IngressRouterError(`${name}() is not in this module`, { kind: "engine" });
      };
    }
    return glue;
  };
}

/** Fetches and starts a module from `url` (browsers, bundlers); a failure says where the file should be. */
export async function startFrom(createGlue, url) {
  try {
    return await new WasmModule(createGlue).start(url);
  } catch (e) {
    const file = url.pathname.split("/").pop();
    throw new IngressRouterError(
      `ingress-router: cannot load ${url}: ${e && e.message}. Serve ${file} beside the module ` +
        `that imports it, as application/wasm (with esbuild: copy node_modules/ingress-router/dist/${file} next to the bundle).`,
      { kind: "load", cause: e },
    );
  }
}

/** One of the package's modules: its compiled WebAssembly.Module and its live instance. */
export class WasmModule {
  #createGlue; // wasm-bindgen's glue as a factory (scripts/glue.mjs)
  #module = null; // the compiled WebAssembly.Module, kept to instantiate it again
  #current = null; // the live instance: { glue, live, owner }
  #broken = null; // why no instance could be made again, when that failed

  constructor(createGlue) {
    this.#createGlue = createGlue;
  }

  #adopt(glue) {
    glue.setErrorClass(IngressRouterError);
    // scratch: where the scratch buffer of the fast route() paths is (api.js), once asked.
    this.#current = { glue, live: true, owner: this, scratch: null };
  }

  /** Instantiates the compiled module now (Node). */
  startSync(compiled) {
    this.#module = compiled;
    const glue = this.#createGlue();
    glue.initSync({ module: compiled });
    this.#adopt(glue);
    return this;
  }

  /** Fetches, compiles and instantiates the .wasm at `url` (browsers, bundlers). */
  async start(url) {
    const glue = this.#createGlue();
    await glue.init({ module_or_path: url });
    this.#module = glue.module;
    this.#adopt(glue);
    return this;
  }

  /** The live instance, for a new call of `op`: `{ glue, live, owner, scratch }`. */
  live(op) {
    if (this.#current) return this.#current;
    throw new IngressRouterError(
      this.#broken
        ? `ingress-router: ${op}(): the WebAssembly module could not be instantiated again after an internal error: ${this.#broken}`
        : `ingress-router: ${op}(): the WebAssembly module is being instantiated again after an internal error; try again in a moment`,
      { kind: "internal" },
    );
  }

  /** Whether `instance` is the live one (not yet replaced). */
  isCurrent(instance) {
    return this.#current === instance;
  }

  /** Runs `call` on the live instance; a trap becomes an IngressRouterError. */
  run(op, call) {
    const instance = this.live(op);
    try {
      return call(instance.glue, instance);
    } catch (e) {
      throw contained(instance, op, e);
    }
  }

  // Synchronously where the platform allows it (Node, browsers), so that the next call works;
  // otherwise asynchronously, and calls until then fail with a clear error (live()).
  renew() {
    this.#current = null;
    try {
      const glue = this.#createGlue();
      glue.initSync({ module: this.#module });
      this.#adopt(glue);
    } catch {
      const glue = this.#createGlue();
      glue.init({ module_or_path: this.#module }).then(
        () => this.#adopt(glue),
        (e) => (this.#broken = e),
      );
    }
  }

  /** The live instance's memory (for the package's memory test). */
  memory() {
    return this.live("memory").glue.initSync().memory;
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
    if (instance.owner.isCurrent(instance)) instance.owner.renew();
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

// The public API over the wasm-bindgen glue: every call runs on a live instance (instance.js), a
// trap is turned into an IngressRouterError, and a Router keeps the instance it was compiled in.
// Calls go to the first module until one needs an optional engine (it fails with the `engine`
// kind): from then on, to the second module, loaded synchronously where the platform can (Node)
// or by `load()`.
import { IngressRouterError } from "./error.js";
import { contained, lost, modules } from "./instance.js";

export { IngressRouterError };

/** The package version (the Rust crates' version), set once the module is ready. */
export let version = "";

let loader = null; // the entry's { load(): Promise<WasmModule>, loadSync?(): WasmModule }
let loading = null; // load()'s promise, while it runs and after it succeeded

/**
 * Called by an entry once its first module is instantiated, with how to load the second. Both
 * entries share this state: the main entry's module (which compiles) replaces the route-only
 * entry's when a page imports both; routers keep the instance that made them.
 */
export function ready(module, secondLoader, { routeOnly = false } = {}) {
  if (modules.first && (routeOnly || !modules.firstRouteOnly)) return;
  modules.first = module;
  modules.firstRouteOnly = routeOnly;
  loader = secondLoader;
  version = run("version", (glue) => glue.version());
}

/**
 * Loads the second module (the ingress-nginx profile and the Gateway API) if it is not loaded:
 * a browser must await this once before the first call that needs it; Node loads it on that
 * call by itself. Resolves when the module is ready; a failed load can be tried again.
 */
export function load() {
  if (modules.second) return Promise.resolve();
  loading ??= loader.load().then(
    (module) => {
      modules.second = module;
    },
    (e) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

// The second module for a call `op` that the first refused with `e` (the `engine` kind).
function secondModule(op, e) {
  if (!modules.second && loader.loadSync) modules.second = loader.loadSync();
  if (modules.second) return modules.second;
  throw new IngressRouterError(
    `ingress-router: ${op}(): ${e.message}. That is in the package's second module, loaded on demand: ` +
      "`await load()` once before this call",
    { kind: "engine", cause: e },
  );
}

// Runs `call` in the module that can answer it.
function run(op, call) {
  if (modules.second) return modules.second.run(op, call);
  try {
    return modules.first.run(op, call);
  } catch (e) {
    if (e?.kind !== "engine") throw e;
    return secondModule(op, e).run(op, call);
  }
}

export function compile(manifests, options) {
  return run("compile", (glue, instance) => new Router(made, glue.compile(manifests, options), instance));
}
/**
 * A router from a precompiled table (`ingress-router compile -o table.bin`, or `router.toTable()`):
 * `bytes` a Uint8Array (or ArrayBuffer). It routes, explains and lists as the compiled one did.
 */
export function loadTable(bytes) {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  return run("loadTable", (glue, instance) => new Router(made, glue.loadTable(view), instance));
}
export function validate(manifests, options) {
  return run("validate", (glue) => glue.validate(manifests, options));
}
export function ingressStatus(manifests, publishService, options) {
  return run("ingressStatus", (glue) => glue.ingressStatus(manifests, publishService, options));
}
export function serviceStatus(manifests, service) {
  return run("serviceStatus", (glue) => glue.serviceStatus(manifests, service));
}
export function runTests(manifests, tests) {
  return run("runTests", (glue) => glue.runTests(manifests, tests));
}
export function readTests(tests) {
  return run("readTests", (glue) => glue.readTests(tests));
}
export function gatewayStatus(manifests, options) {
  return run("gatewayStatus", (glue) => glue.gatewayStatus(manifests, options));
}
export function migrate(manifests, options) {
  return run("migrate", (glue) => glue.migrate(manifests, options));
}
export function convert(manifests, options) {
  return run("convert", (glue) => glue.convert(manifests, options));
}

const made = Symbol("made by compile()");

// Frees a glue handle (a Router's or a Workspace's) once; a lost instance is never called again.
function freeHandle(handle, instance) {
  if (!handle) return;
  if (!instance.live) {
    handle.__destroy_into_raw(); // forgets the pointer (no call into the dead instance)
    return;
  }
  try {
    handle.free();
  } catch (e) {
    throw contained(instance, "free", e);
  }
}

/**
 * Manifests compiled again after each edit (an editor's text, on every keystroke): `update(text)`
 * returns the router `compile(text, options)` would, reading, validating and linting again only
 * the documents whose text changed.
 */
export class Workspace {
  #workspace;
  #instance;

  #options;

  constructor(options) {
    this.#options = options;
    run("Workspace", (glue, instance) => {
      this.#workspace = new glue.Workspace(options);
      this.#instance = instance;
    });
  }

  update(manifests) {
    if (!this.#instance.live) throw lost();
    if (!this.#workspace) throw freedWorkspace();
    try {
      return new Router(made, this.#workspace.update(manifests), this.#instance);
    } catch (e) {
      if (e?.kind === "engine" && this.#instance.owner === modules.first) {
        // The text now needs the second module: the workspace moves there for good.
        const module = secondModule("update", e);
        this.free();
        module.run("Workspace", (glue, instance) => {
          this.#workspace = new glue.Workspace(this.#options);
          this.#instance = instance;
        });
        return this.update(manifests);
      }
      throw contained(this.#instance, "update", e);
    }
  }

  /** Frees what the workspace keeps now; twice is harmless. Routers it returned stay usable. */
  free() {
    const workspace = this.#workspace;
    this.#workspace = null;
    freeHandle(workspace, this.#instance);
  }
}
if (Symbol.dispose) Workspace.prototype[Symbol.dispose] = Workspace.prototype.free;

function freedWorkspace() {
  return new IngressRouterError("this Workspace was freed (free() or `using`): make a new one", { kind: "freed" });
}

/** A compiled routing table: the glue's Router, in the instance that made it. */
export class Router {
  #router;
  #instance;
  // One frozen decision per answer slot, kept on this side: a repeated answer crosses the
  // boundary as a number (`routeSlot`) instead of an object.
  #decisions = [];
  #scratch = new Uint8Array(0); // a view of the module's scratch buffer, made on the first call

  constructor(key, router, instance) {
    if (key !== made) throw new TypeError("ingress-router: a Router is made by compile() or loadTable()");
    this.#router = router;
    this.#instance = instance;
  }

  // The glue's router, or the error that says why it cannot be used.
  #use() {
    if (!this.#instance.live) throw lost();
    if (!this.#router) throw freed();
    return this.#router;
  }

  // Calls the glue's router; a trap inside the wasm becomes the error of `contained`.
  #call(name, call) {
    const router = this.#use();
    try {
      return call(router);
    } catch (e) {
      throw contained(this.#instance, name, e);
    }
  }

  route(request) {
    // route(url): the URL goes over as one string; a repeated answer comes back as a number.
    if (typeof request === "string") return this.#routeUrl(request);
    if (typeof request === "object" && request !== null && !Array.isArray(request)) {
      // Every request object is read here once, field by field, and written into the module's
      // scratch buffer (#routeFields); anything this reading does not know (another property, a
      // value of another type, non-ASCII text, too long) takes the general path, whose JSON
      // reading gives the same answer or says what is wrong.
      let url, host, path, method, scheme, headers, port, grpc;
      for (const key in request) {
        const value = request[key];
        if (value === undefined || value === null) continue; // absent, as JSON reads it
        switch (key) {
          case "url": url = value; break;
          case "host": host = value; break;
          case "path": path = value; break;
          case "method": method = value; break;
          case "scheme": scheme = value; break;
          case "headers": headers = value; break;
          case "port": port = value; break;
          case "grpc": grpc = value; break;
          default: return this.#routeGeneral(request);
        }
      }
      const text = (v) => v === undefined || typeof v === "string";
      if (text(url) && text(host) && text(path) && text(method) && text(grpc) &&
        (scheme === undefined || scheme === "http" || scheme === "https") &&
        (port === undefined || (Number.isInteger(port) && port >= 0 && port <= 65535)) &&
        (headers === undefined || (typeof headers === "object" && (Object.getPrototypeOf(headers) === Object.prototype || Object.getPrototypeOf(headers) === null)))) {
        if (host !== undefined && path !== undefined && url === undefined && method === undefined && scheme === undefined &&
          headers === undefined && port === undefined && grpc === undefined) {
          return this.#routeParts(host, path);
        }
        if (url !== undefined && host === undefined && path === undefined && method === undefined && scheme === undefined &&
          headers === undefined && port === undefined && grpc === undefined) {
          return this.#routeUrl(url);
        }
        return this.#routeFields(request, url, host, path, method, scheme, headers, port, grpc);
      }
    }
    return this.#routeGeneral(request);
  }

  #routeGeneral(request) {
    return this.#call("route", (router) => router.route(request));
  }

  // Any other request object: its fields written into the scratch buffer (the layout is the
  // module's `fields`, pkg/src/lib.rs): the target, path, method and gRPC call one after the other,
  // then each header as two 16-bit lengths, its name and its value. The core reads them; what it
  // refuses, or what does not fit or is not ASCII, takes the general path.
  #routeFields(request, url, host, path, method, scheme, headers, port, grpc) {
    return this.#call("route", (router) => {
      const view = this.#scratchView();
      // One target: a URL and a host together (which the core refuses) take the general path.
      const target = url ?? host;
      if (target === undefined || (url !== undefined && host !== undefined)) return router.route(request);
      let flags = (url !== undefined ? 1 : 0) | (scheme === "http" ? 16 : scheme === "https" ? 32 : 0) | (port !== undefined ? 64 : 0);
      let at = 0;
      const put = (s, flag) => {
        if (s === undefined) return 0;
        flags |= flag;
        if (at + s.length > view.length || !ascii(view, at, s)) return -1;
        at += s.length;
        return s.length;
      };
      const t = put(target, 0), p = put(path, 2), m = put(method, 4), g = put(grpc, 8);
      if (t < 0 || p < 0 || m < 0 || g < 0) return router.route(request);
      const start = at;
      if (headers !== undefined) {
        for (const name in headers) {
          const value = headers[name];
          if (typeof value !== "string" || at + 4 + name.length + value.length > view.length) return router.route(request);
          view[at] = name.length & 0xff;
          view[at + 1] = name.length >> 8;
          view[at + 2] = value.length & 0xff;
          view[at + 3] = value.length >> 8;
          at += 4;
          if (!ascii(view, at, name) || !ascii(view, at + name.length, value)) return router.route(request);
          at += name.length + value.length;
        }
      }
      const h = at - start, portNumber = port ?? 0;
      const slot = router.routeRequestScratch(flags, t, p, m, g, h, portNumber);
      if (slot === -2) return router.route(request);
      const decide = () => router.routeRequestScratchView(flags, t, p, m, g, h, portNumber) ?? router.route(request);
      if (slot < 0) return decide();
      return (this.#decisions[slot] ??= decide());
    });
  }

  // The fast paths: the strings written into the module's scratch buffer when they fit and are
  // ASCII (no allocation, copy or free in the module per call); else passed by the glue.
  #routeParts(host, path) {
    return this.#call("route", (router) => {
      const view = this.#scratchView();
      const slot =
        host.length + path.length <= view.length && ascii(view, 0, host) && ascii(view, host.length, path)
          ? router.routeScratch(host.length, path.length)
          : router.routeSlot(host, path);
      if (slot < 0) return router.routeParts(host, path);
      return (this.#decisions[slot] ??= router.routeParts(host, path));
    });
  }

  #routeUrl(url) {
    return this.#call("route", (router) => {
      const view = this.#scratchView();
      const slot =
        url.length <= view.length && ascii(view, 0, url) ? router.routeUrlScratch(url.length) : router.routeUrlSlot(url);
      if (slot === -2) return router.route(url); // not a URL the core reads: the general path says why
      if (slot < 0) return router.routeUrl(url);
      return (this.#decisions[slot] ??= router.routeUrl(url));
    });
  }

  // The module's scratch buffer as bytes. Growing the memory detaches every view of it (its length
  // becomes 0): then a new view of the same bytes.
  #scratchView() {
    if (this.#scratch.length === 0) {
      const instance = this.#instance;
      const [pointer, length] = (instance.scratch ??= instance.glue.scratch());
      this.#scratch = new Uint8Array(instance.glue.initSync().memory.buffer, pointer, length);
    }
    return this.#scratch;
  }

  explain(request) {
    return this.#call("explain", (router) => router.explain(request));
  }

  table() {
    return this.#call("table", (router) => router.table());
  }

  /** The table as a table file (a Uint8Array) for `loadTable`: the spec profile's Ingress table. */
  toTable() {
    return this.#call("toTable", (router) => {
      if (!router.toTable) {
        throw new IngressRouterError(
          "ingress-router: toTable(): this router's module writes no tables (the package's first module and the route-only one): " +
            "`await load()` once before compile() (the second module then compiles, and writes tables)",
          { kind: "engine" },
        );
      }
      return router.toTable();
    });
  }

  validate(options) {
    return this.#call("validate", (router) => router.validate(options));
  }

  writeTests(requests, comment) {
    return this.#call("writeTests", (router) => router.writeTests(requests, comment));
  }

  get diagnostics() {
    return this.#call("diagnostics", (router) => router.diagnostics);
  }

  /** Frees the table now; twice is harmless. A lost router's instance is never called again. */
  free() {
    const router = this.#router;
    this.#router = null;
    freeHandle(router, this.#instance);
  }
}
if (Symbol.dispose) Router.prototype[Symbol.dispose] = Router.prototype.free;

// Writes the UTF-16 units of `s` as bytes into `view` at `at` while they are ASCII (then they are
// its UTF-8); whether all were. A string with other characters goes through the glue, as before
// (which encodes a lone surrogate as U+FFFD).
function ascii(view, at, s) {
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit > 0x7f) return false;
    view[at + i] = unit;
  }
  return true;
}

function freed() {
  return new IngressRouterError("this Router was freed (free() or `using`): compile again", { kind: "freed" });
}

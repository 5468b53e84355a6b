// The public API over the wasm-bindgen glue: the glue's functions as they are, the error class
// registered with the module, and use-after-free turned into an IngressRouterError.
import {
  compile,
  validate,
  ingressStatus,
  serviceStatus,
  Router,
  setErrorClass,
  version as wasmVersion,
} from "./ingress_router.js";
import { IngressRouterError } from "./error.js";

export { compile, validate, ingressStatus, serviceStatus, Router, IngressRouterError };

/** The package version (the Rust crates' version), set once the module is ready. */
export let version = "";

// A freed router has a null pointer; calling into Rust with it would be a plain Error.
function guard(name) {
  const method = Router.prototype[name];
  Router.prototype[name] = function (request) {
    if (!this.__wbg_ptr) throw freed();
    return method.call(this, request);
  };
}
function freed() {
  return new IngressRouterError("this Router was freed (free() or `using`): compile again", { kind: "freed" });
}
for (const name of ["explain", "table"]) guard(name);
// route({host, path}) hands the two strings over directly: reading the object from Rust costs
// more than the lookup. Anything else (URLs, scheme, method, headers, bad input) takes the general path.
const route = Router.prototype.route;
const routeParts = Router.prototype.routeParts;
Router.prototype.route = function (request) {
  if (!this.__wbg_ptr) throw freed();
  if (
    typeof request === "object" &&
    request !== null &&
    typeof request.host === "string" &&
    typeof request.path === "string" &&
    request.scheme === undefined &&
    request.method === undefined &&
    request.headers === undefined
  ) {
    return routeParts.call(this, request.host, request.path);
  }
  return route.call(this, request);
};
delete Router.prototype.routeParts;
const diagnostics = Object.getOwnPropertyDescriptor(Router.prototype, "diagnostics");
Object.defineProperty(Router.prototype, "diagnostics", {
  ...diagnostics,
  get() {
    if (!this.__wbg_ptr) throw freed();
    return diagnostics.get.call(this);
  },
});
const free = Router.prototype.free;
// free() twice is harmless.
Router.prototype.free = function () {
  if (this.__wbg_ptr) free.call(this);
};
if (Symbol.dispose) Router.prototype[Symbol.dispose] = Router.prototype.free;

/** Called by the entry once the WebAssembly module is instantiated. */
export function ready() {
  setErrorClass(IngressRouterError);
  version = wasmVersion();
}

// A trap inside the wasm (a Rust panic on purpose: the test build's `__panicForTest`, called
// through the package's own guarded path), twice, in Node (test/trap.mjs) and in Chromium
// (test/browser.mjs): the call throws IngressRouterError "internal", routers made before throw
// "lost", and a fresh instance answers the next compile and route. `pkg` is the test build's
// entry, `instance` its instance.js. Returns what it saw; throws on the first difference.
const yaml = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: trap}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      - {path: /cart, pathType: Prefix, backend: {service: {name: cart-api, port: {number: 8080}}}}
`;

function check(ok, what) {
  if (!ok) throw new Error(`trap scenario: ${what}`);
}

function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("trap scenario: expected a throw, nothing was thrown");
}

// The route decision's backend as "name:port".
function backend(router, url) {
  return router.route(url).label;
}

export function trapScenario(pkg, instance) {
  const { compile, validate, IngressRouterError } = pkg;
  const seen = [];
  for (const round of [1, 2]) {
    const before = compile(yaml);
    check(backend(before, "https://shop.example.com/cart/1") === "cart-api:8080", `round ${round}: routes before the trap`);
    const memory = instance.memory();

    const error = thrown(() => instance.run("__panicForTest", (glue) => glue.__panicForTest()));
    check(error instanceof IngressRouterError, `round ${round}: the trap gives ${error}, not an IngressRouterError`);
    check(error.kind === "internal", `round ${round}: kind ${error.kind}`);
    check(/__panicForTest\(\)/.test(error.message) && /bug in ingress-router/.test(error.message), error.message);
    check(error.cause instanceof WebAssembly.RuntimeError && /unreachable/.test(error.cause.message), `cause ${error.cause}`);
    seen.push(error.message);

    // The routers of the dead instance, whatever is called.
    for (const call of [() => before.route("https://shop.example.com/"), () => before.explain("https://shop.example.com/"), () => before.table(), () => before.diagnostics]) {
      const e = thrown(call);
      check(e instanceof IngressRouterError && e.kind === "lost" && /compile again/.test(e.message), `round ${round}: a router of the dead instance gives ${e} (${e.kind})`);
    }
    before.free(); // harmless, and it never calls the dead instance
    before.free();

    // A fresh instance answers.
    check(instance.memory() !== memory, `round ${round}: the same wasm memory after the trap: not a fresh instance`);
    const after = compile(yaml);
    check(backend(after, "https://shop.example.com/cart/1") === "cart-api:8080", `round ${round}: /cart after the trap`);
    check(backend(after, { host: "shop.example.com", path: "/about" }) === "web:80", `round ${round}: / after the trap`);
    check(after.explain("https://shop.example.com/cart").decision.label === "cart-api:8080", `round ${round}: explain after the trap`);
    check(validate(yaml).ok === true, `round ${round}: validate after the trap`);
    const syntax = thrown(() => compile("kind: [x\n"));
    check(syntax instanceof IngressRouterError && syntax.kind === "syntax", `round ${round}: an input error after the trap gives ${syntax}`);
    after.free();
    check(thrown(() => after.route("https://shop.example.com/")).kind === "freed", `round ${round}: freed`);
  }
  return seen;
}

// The packed package as a user gets it: run inside a temporary project where the tarball is
// installed, importing "ingress-router" exactly as a user would. Arguments: the shop manifests
// (one YAML stream), the invalid example, and (optional) the native CLI to compare JSON with.
// Writes outputs.ts: the real outputs typed with the package's types, for tsc --strict.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile, validate, ingressStatus, serviceStatus, runTests, readTests, gatewayStatus, migrate, convert, load, version, IngressRouterError, Router, Workspace } from "ingress-router";

const [shopFile, invalidFile, cli, casesFile, gatewayCasesFile, migrationDir, migrateDir] = process.argv.slice(2);
const shop = readFileSync(shopFile, "utf8");
const invalid = readFileSync(invalidFile, "utf8");
const outputs = {};

// ---- decisions
const router = compile(shop, { ingressClass: "nginx" });
assert.ok(router instanceof Router);
const cart = router.route("https://shop.example.com/cart/items?id=1");
assert.deepEqual(cart, {
  label: "cart-api:80",
  backend: { service: { name: "cart-api", port: { number: 80 } } },
  via: "rule",
  status: 200,
  matched: { ingress: "shop/storefront", host: "shop.example.com", path: "/cart", pathType: "Prefix", field: "spec.rules[0].http.paths[0]" },
});
assert.deepEqual(router.route({ host: "SHOP.example.com:443", path: "/cart/items" }), cart); // the fast path
// One frozen object per answer: the fast path hands back the very object another request of the
// same answer got.
assert.equal(router.route({ host: "shop.example.com", path: "/cart/a" }), router.route({ host: "shop.example.com", path: "/cart/b" }));
assert.deepEqual(router.route({ host: "shop.example.com", path: "/cart", method: "POST" }), cart);
// An optional property that is explicitly undefined is a missing one (a regression: this threw).
assert.deepEqual(router.route({ host: "shop.example.com", path: "/cart", method: "GET", headers: undefined }), cart);
assert.deepEqual(router.route({ url: "https://shop.example.com/cart", scheme: undefined, headers: null }), cart);
// Decisions are shared between calls, so they are frozen all the way down.
assert.ok(Object.isFrozen(cart) && Object.isFrozen(cart.backend.service.port) && Object.isFrozen(cart.matched));
const fallback = router.route({ host: "shop.example.com", path: "/nowhere", method: "GET", headers: { accept: "*/*" } });
assert.equal(fallback.via, "defaultBackend");
assert.equal(fallback.defaultFrom, "shop/storefront");
const unknown = compile(shop, { ingressClass: "nginx" }).route("http://unknown.example.org/");
// No rule names the host: storefront's spec.defaultBackend answers.
assert.deepEqual([unknown.via, unknown.label, unknown.defaultFrom], ["defaultBackend", "web:80", "shop/storefront"]);
// Every compile option by the core's own names; a request the proxy refuses is a decision.
const proxied = compile(shop, { ingressClass: "nginx", normalizePath: true, mergeSlashes: true, escapedSlashes: "REJECT_REQUEST" });
assert.deepEqual(proxied.route("https://shop.example.com//cart/./items"), cart);
const refused = proxied.route("https://shop.example.com/cart%2Fitems");
assert.deepEqual([refused.via, refused.status, refused.backend], ["rejected", 400, null]);
assert.match(refused.reason, /escaped slash/);
// explain says which path was matched after normalising (and leaves it out when nothing changed).
const normalizedWhy = proxied.explain("https://shop.example.com//cart/./items");
assert.equal(normalizedWhy.normalizedPath, "/cart/items");
assert.equal(normalizedWhy.decision.label, "cart-api:80");
assert.equal(proxied.explain("https://shop.example.com/cart/items").normalizedPath, undefined);
outputs.explanationNormalized = normalizedWhy;
proxied.free();
outputs.decisionRule = cart;
outputs.decisionDefault = fallback;

// ---- explain and table
const why = router.explain("https://shop.example.com/cart/items");
assert.equal(why.decision.label, "cart-api:80");
assert.equal(why.tier, "exact");
assert.ok(why.candidates.some((c) => c.chosen && c.path === "/cart"));
assert.match(why.tierReason, /shop\.example\.com/);
outputs.explanation = why;
outputs.explanation404 = compile(shop).explain("http://nothing.example.net/x");
const table = router.table();
assert.ok(table.hosts.length > 0 && table.ingresses.length > 0);
outputs.table = table;
assert.ok(Array.isArray(router.diagnostics));
outputs.diagnostics = compile(shop).diagnostics;
assert.ok(outputs.diagnostics.length > 0, "the shop example has diagnostics");

// ---- validation errors with line numbers
const report = validate(invalid);
assert.equal(report.ok, false);
const checkout = report.objects.find((o) => o.name === "checkout");
assert.equal(checkout.valid, false);
assert.match(checkout.message, /^Ingress\.networking\.k8s\.io "checkout" is invalid: \[/);
const hostError = checkout.errors.find((e) => e.field === "spec.rules[0].host");
assert.equal(hostError.type, "FieldValueInvalid");
assert.equal(hostError.line, 14);
assert.equal(hostError.column, 11);
const pathError = checkout.errors.find((e) => e.field === "spec.rules[0].http.paths[0].path");
assert.equal(pathError.line, 17);
outputs.validation = report;
const valid = validate(shop);
assert.equal(valid.ok, true);
assert.equal(validate(shop, { strict: true }).ok, valid.summary.warnings === 0);
outputs.validationStrict = validate(shop, { strict: true, update: shop });
assert.ok(outputs.validationStrict.objects.some((o) => o.operation === "update"));
// A router validates what it was compiled from, with its own options: the same report as
// validate() reading the manifests again.
for (const [manifests, options] of [[invalid, {}], [shop, { ingressClass: "nginx" }], [shop, { profile: "ingress-nginx" }]]) {
  const compiled = compile(manifests, options);
  assert.deepEqual(compiled.validate(), validate(manifests, options));
  assert.deepEqual(compiled.validate({ strict: true, update: shop }), validate(manifests, { ...options, strict: true, update: shop }));
  compiled.free();
}
assert.equal(compile(invalid).validate().objects.find((o) => o.name === "checkout").errors[0].line, 14);
throws(() => compile(shop).validate({ ingressClass: "nginx" }), "options");
throws(() => compile(shop).validate({ strict: "yes" }), "options");

// ---- a Workspace: each update gives what compile() gives for the same text
{
  const docs = shop.split(/^---$/m);
  const same = (a, b) => {
    assert.deepEqual(a.table(), b.table());
    assert.deepEqual(a.diagnostics, b.diagnostics);
    assert.deepEqual(a.validate(), b.validate());
    for (const url of ["https://shop.example.com/cart/1", "https://shop.example.com/", "http://unknown.example.org/x"]) {
      assert.deepEqual(a.route(url), b.route(url));
    }
  };
  const errorOf = (fn) => {
    try {
      fn();
    } catch (e) {
      return { kind: e.kind, message: e.message, line: e.line, column: e.column, document: e.document };
    }
    assert.fail("expected an error");
  };
  const workspace = new Workspace({ ingressClass: "nginx" });
  const edits = [
    shop,
    docs.join("---\n# an edited comment\n"),
    docs.slice().reverse().join("---"),
    docs.slice(1).join("---"),
    docs.join("---") + "---\nkind: [unclosed\n",
    docs.map((d) => d.replace("creationTimestamp", "# creationTimestamp")).join("---"),
    invalid,
    shop,
  ];
  for (const text of edits) {
    let compiled;
    try {
      compiled = compile(text, { ingressClass: "nginx" });
    } catch {
      assert.deepEqual(errorOf(() => workspace.update(text)), errorOf(() => compile(text, { ingressClass: "nginx" })));
      continue;
    }
    const updated = workspace.update(text);
    same(updated, compiled);
    updated.free();
    compiled.free();
  }
  same(workspace.update(JSON.parse(JSON.stringify([{ kind: "Service", apiVersion: "v1", metadata: { name: "a" } }]))), compile([{ kind: "Service", apiVersion: "v1", metadata: { name: "a" } }], { ingressClass: "nginx" }));
  workspace.free();
  throws(() => new Workspace({ ingresClass: "nginx" }), "options");
  const freed = new Workspace();
  freed.free();
  freed.free();
  throws(() => freed.update(shop), "freed");
}

// ---- the second module: a Workspace whose text gains Gateway API objects (or whose options name
// the ingress-nginx profile) moves there, Node loading it on that call; its answers stay compile()'s
if (migrationDir) {
  const careful = readFileSync(join(migrationDir, "careful.yaml"), "utf8");
  const urls = ["https://shop.example.com/cart/1", "http://shop.example.com/", "http://unknown.example.org/x"];
  const same = (a, b) => {
    assert.deepEqual(a.table(), b.table());
    assert.deepEqual(a.diagnostics, b.diagnostics);
    for (const url of urls) assert.deepEqual(a.route(url), b.route(url));
  };
  for (const options of [{}, { profile: "ingress-nginx" }]) {
    const workspace = new Workspace(options);
    const before = workspace.update(shop);
    same(before, compile(shop, options));
    same(workspace.update(careful), compile(careful, options));
    const gateway = new Workspace({ ...options, gateway: "infra/public" }).update(careful);
    same(gateway, compile(careful, { ...options, gateway: "infra/public" }));
    same(workspace.update(shop), compile(shop, options));
    same(before, compile(shop, options)); // a router of the first module still answers
    workspace.free();
  }
  const loading = load();
  assert.ok(loading instanceof Promise);
  assert.equal(await loading, undefined);
  assert.equal(await load(), undefined);
}

// ---- status reports
const status = ingressStatus(shop, "ingress-nginx/ingress-nginx-controller", { ingressClass: "nginx" });
const storefront = status.ingresses.find((i) => i.name === "storefront");
assert.equal(storefront.update.action, "put");
assert.equal(storefront.update.method, "PUT");
assert.equal(storefront.update.path, "/apis/networking.k8s.io/v1/namespaces/shop/ingresses/storefront/status");
assert.equal(JSON.parse(storefront.update.body).kind, "Ingress");
assert.ok(status.rows.some((r) => r.name === "storefront" && r.address !== ""));
outputs.status = status;
outputs.statusMissing = ingressStatus(shop, "nowhere/none");
assert.equal(outputs.statusMissing.noAddress.kind, "publishServiceMissing");
const service = serviceStatus(shop, "ingress-nginx/ingress-nginx-controller");
assert.equal(service.type, "LoadBalancer");
outputs.service = service;

// ---- thrown errors, and the next call works
function throws(fn, kind, check = () => {}) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof IngressRouterError, `expected IngressRouterError (${kind}), got ${caught}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, "IngressRouterError");
  assert.equal(caught.kind, kind, caught.message);
  check(caught);
  assert.equal(compile(shop).route("https://shop.example.com/cart").via, "rule", "the next call works");
}
throws(() => compile("kind: Ingress\nmetadata: {name: [x\n"), "syntax", (e) => {
  assert.equal(e.source, "<input>");
  assert.equal(e.line, 3);
  assert.equal(typeof e.column, "number");
  assert.match(e.message, /line 3/);
});
throws(() => compile('{"kind": "Ingress", "spec": {"rules": 7}}'), "type", (e) => assert.equal(e.field, "spec.rules"));
throws(() => compile(null), "argument");
throws(() => compile(undefined), "argument");
throws(() => compile(12), "argument");
throws(() => compile(Symbol("x")), "argument");
throws(() => compile(() => 1), "argument");
throws(() => compile("x".repeat(33 * 1024 * 1024)), "too-large");
throws(() => compile("a: &a [x, x]\nb: &b [*a, *a]\n" + "c: [" + "*b, ".repeat(1000) + "*b]\n"), "shape");
throws(() => compile("[".repeat(100000)), "syntax");
throws(() => compile("a:\n" + "  - ".repeat(2000) + "x\n"), "syntax");
throws(() => compile("metadata:\n  name: {{ .Values.name }}\n"), "template");
throws(() => compile("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a}\nspec:\n  rules:\n  - host: 5\n"), "type");
throws(() => compile(shop, { implementationSpecific: "regex" }), "options");
throws(() => compile(shop, { ingresClass: "nginx" }), "options");
throws(() => compile(shop, "nginx"), "options");
throws(() => router.route(null), "request");
throws(() => router.route({ path: "/" }), "request"); // a host or a url is needed (a host alone routes `/`)
throws(() => router.route({ host: "a", pth: "/" }), "request"); // a misspelt key is an error
throws(() => router.route({ url: "http://a/", host: "a" }), "request");
throws(() => router.route({ host: 1, path: "/" }), "request");
throws(() => router.route("http://"), "url");
throws(() => ingressStatus(shop, 5), "argument");
throws(() => ingressStatus(shop, "no-slash"), "argument");
throws(() => serviceStatus(shop, "shop/none"), "not-found");
const cyclic = { kind: "Ingress" };
cyclic.self = cyclic;
throws(() => compile(cyclic), "argument");
// route(url), the string fast path, answers as the general path ({url}) does, errors included.
for (const url of ["https://shop.example.com/cart/items?id=1", "http://shop.example.com/cart", "shop.example.com/cart",
  "https://SHOP.example.com:8443/cart/x#f", "http://unknown.example.org/", "http://[::1]:80/", "https://shop.example.com"]) {
  assert.deepEqual(router.route(url), router.route({ url }), url);
  assert.equal(router.route(url), router.route(url), `${url}: one frozen object per answer`);
}
for (const bad of ["http://", "http:///path"]) {
  throws(() => router.route(bad), "url");
  throws(() => router.route({ url: bad }), "url");
}
// Odd hosts and paths route.
// Odd requests route like any other: a host no rule names gets storefront's defaultBackend; the
// raw path `/cart/../admin` is under the Prefix /cart (the spec profile routes the path as sent).
for (const [request, via, label] of [
  [{ host: "h".repeat(1 << 20), path: "/cart" }, "defaultBackend", "web:80"],
  [{ host: "", path: "" }, "defaultBackend", "web:80"],
  [{ host: "shop.example.com", path: "/cart/../admin?x#y" }, "rule", "cart-api:80"],
  [{ host: "[::1]:8080", path: "*" }, "defaultBackend", "web:80"],
  [{ host: "shop.example.com", path: "/\u0000/\ud83d\ude00/%2F" }, "defaultBackend", "web:80"],
  [{ host: "shop.example.com\ud800", path: "/cart" }, "defaultBackend", "web:80"],
]) {
  const d = router.route(request);
  assert.deepEqual([d.via, d.label], [via, label], JSON.stringify(request).slice(0, 80));
}

// The fast paths ({host, path} and a URL string: ASCII written into the module's scratch buffer,
// anything else through the glue) answer as the general path does: a request with a method, and
// {url}. Edge inputs: non-ASCII, lone surrogates, empty strings, strings around and far over any
// scratch buffer, ports and queries; each in turn, so that a short request follows a long one in
// the buffer; asked twice (the cached answer); on routers of the spec profile (shared answers)
// and ingress-nginx (a rewrite is the request's own), again after a big compile grew the memory.
const wellFormed = (s) => s.replace(/\p{Cs}/gu, "\ufffd");
function fastPathAgrees(routers) {
  const long = (n) => "/cart/" + "a".repeat(n - 6);
  const hosts = ["shop.example.com", "SHOP.example.com:443", "shop.example.com.", "", "shöp.example.com", "shop.example.com\ud800",
    "\udc00", "h".repeat(5000), "x".repeat(100_000), "regex.example.com", "shop.example.com:8080"];
  const paths = ["/cart/items", "", "/", "/cärt", "/cart/\ud800", "/cart/\ud83d\ude00", "/cart?x=1#y", "/api/orders/7",
    long(4095 - 16), long(4096 - 16), long(4097 - 16), long(8192), long(70_000)];
  for (const [name, router] of Object.entries(routers)) {
    for (const host of hosts) {
      for (const path of paths) {
        const why = `${name}: ${JSON.stringify({ host, path }).slice(0, 100)}`;
        // A lone surrogate is U+FFFD in the module on the fast paths (the glue's UTF-8), while
        // the general path refuses it (its JSON): the general path is asked with U+FFFD.
        const general = router.route({ host: wellFormed(host), path: wellFormed(path), method: "GET" });
        assert.deepEqual(router.route({ host, path }), general, why);
        assert.deepEqual(router.route({ host, path }), general, `${why} again`);
        // A host with a port or a dot to strip, written into a URL with its scheme.
        if (host && !/[/?#\s]/.test(host) && path.startsWith("/")) {
          const url = `http://${host}${path}`;
          const viaUrl = (request) => { try { return router.route(request); } catch (e) { return e.kind; } };
          assert.deepEqual(viaUrl(url), viaUrl({ url: wellFormed(url) }), `${why} as a URL`);
          assert.deepEqual(viaUrl(url), viaUrl({ url: wellFormed(url), method: "GET" }), `${why} as a URL again`);
        }
      }
    }
    for (const url of ["https://shop.example.com:8443/cart/items?id=1#f", "http://shop.example.com:80", "shop.example.com/cart?q",
      "http://shöp.example.com/cart", "http://shop.example.com/c\ud800", "", "http://", "http://shop.example.com/" + "a".repeat(9000)]) {
      let general;
      try { general = router.route({ url: wellFormed(url) }); } catch (e) { general = e.kind; }
      let fast;
      try { fast = router.route(url); } catch (e) { fast = e.kind; }
      assert.deepEqual(fast, general, `${name}: ${JSON.stringify(url).slice(0, 100)}`);
    }
  }
}
{
  const manifests = readFileSync("nginx.yaml", "utf8");
  const routers = { spec: compile(shop, { ingressClass: "nginx" }), nginx: compile(manifests, { profile: "ingress-nginx" }) };
  fastPathAgrees(routers);
  // Compiling 30 000 paths grows the module's memory, which detaches every view of it.
  const big = compile(JSON.stringify(Array.from({ length: 3000 }, (_, n) => ({
    apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: `i${n}`, namespace: "default" },
    spec: { rules: [{ host: `h${n}.example.com`, http: { paths: Array.from({ length: 10 }, (_, p) => ({ path: `/p${p}`, pathType: "Prefix", backend: { service: { name: `s${p}`, port: { number: 80 } } } })) } }] },
  }))));
  fastPathAgrees(routers);
  assert.equal(big.route({ host: "h2999.example.com", path: "/p9/x" }).backend.service.name, "s9");
  big.free();
  for (const router of Object.values(routers)) {
    router.free();
    throws(() => router.route({ host: "shop.example.com", path: "/cart" }), "freed");
    throws(() => router.route({ host: "shöp.example.com", path: "/cart" }), "freed");
    throws(() => router.route("http://shop.example.com/cart"), "freed");
  }
}

// ---- every request form on the fast path (#routeFields: method, headers, scheme, port, grpc
// written into the scratch buffer) answers as the general path: `{ toJSON: () => request }` is the
// same request read as JSON by the module (the general path), on a second router of the same
// manifests, so that neither shares the other's cached answers; and as explain()'s decision (never
// cached). Non-ASCII, oversize and refused requests fall back with the same answer or error kind.
{
  const forms = (host, path) => [
    { host, path, method: "GET" },
    { host, path, method: "POST" },
    { host, path, method: "POST", headers: { "X-Canary": "always", Cookie: "canary=always" } },
    { host, path, headers: { "content-type": "application/grpc" }, method: "POST" },
    { host, path, headers: { "Content-Type": "application/grpc+proto", "content-type": "text/plain" }, method: "POST" },
    { host, grpc: "shop.v1.Cart/Get" },
    { host, grpc: "shop.v1.Cart/Get", method: "GET" },
    { host, grpc: "shop.v1.Cart/Get", headers: { "content-type": "application/json" } },
    { host, grpc: "shop.v1.Cart" },
    { host, path, grpc: "shop.v1.Cart/Get" },
    { url: `https://${host}${path}`, method: "DELETE" },
    { url: `http://${host}/`, grpc: "a.B/C" },
    { host, path, scheme: "https" },
    { host, path, scheme: "ftp" },
    { host, path, port: 8443 },
    { host, path, port: 70000 },
    { host, path, port: 1.5 },
    { host },
    { host, path, method: "GËT" },
    { host, path, headers: { "x-ä": "1" } },
    { host, path, headers: { a: "v".repeat(5000) } },
    { host, path, headers: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`h${i}`, "v"])) },
    { host, path, headers: { a: 1 } },
    { host, path, headers: ["a"] },
    { host, path, method: "GET", pth: "/x" },
    { host, path, method: undefined, headers: null, scheme: null },
    { path, method: "GET" },
    { url: "http://", method: "GET" },
  ];
  const answer = (router, request) => {
    try { return router.route(request); } catch (e) { return e.kind; }
  };
  const nginx = readFileSync("nginx.yaml", "utf8");
  let compared = 0;
  for (const [text, options] of [[shop, { ingressClass: "nginx" }], [nginx, { profile: "ingress-nginx" }]]) {
    const fast = compile(text, options);
    const general = compile(text, options);
    for (const [host, path] of [["shop.example.com", "/cart/items"], ["unknown.example.org", "/"], ["SHOP.example.com:443", "/api/x?y=1"]]) {
      for (const pass of [1, 2]) {
        for (const request of forms(host, path)) {
          const why = `${JSON.stringify(request).slice(0, 120)} (pass ${pass})`;
          const a = answer(fast, request);
          assert.deepEqual(a, answer(general, { toJSON: () => request }), why);
          if (typeof a === "object") assert.deepEqual(a, fast.explain({ toJSON: () => request }).decision, `${why}: explain`);
          compared++;
        }
      }
    }
    fast.free();
    general.free();
  }
  assert.ok(compared > 300, `${compared} requests compared`);
}

// ---- free, dispose, use after free
const disposable = compile(shop);
assert.equal(typeof disposable[Symbol.dispose], "function");
disposable[Symbol.dispose]();
disposable.free();
throws(() => disposable.route("http://a/"), "freed");
throws(() => disposable.diagnostics, "freed");

// ---- CommonJS
assert.throws(() => createRequire(import.meta.url)("ingress-router"), /ingress-router is an ES module/);
assert.match(version, /^\d+\.\d+\.\d+/);

// ---- one schema with the CLI's --json
if (cli) {
  const run = (...args) => JSON.parse(execFileSync(cli, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  const f = ["-f", shopFile, "--ingress-class", "nginx"];
  assert.deepEqual(router.explain("https://shop.example.com/cart/items"), run("explain", ...f, "--json", "https://shop.example.com/cart/items"));
  assert.deepEqual(router.table(), run("table", ...f, "--json"));
  const { rows, ...report } = status;
  // The CLI's report adds every object's stanza in input order (`objects`, Gateway API objects
  // included: gatewayStatus() gives those) and the Gateway API controller's name.
  const { objects: listed, controllerName, ...cliReport } = run("status", ...f, "--publish-service", "ingress-nginx/ingress-nginx-controller", "--json");
  assert.deepEqual(report, cliReport);
  assert.deepEqual(listed.map((o) => o.kind), report.ingresses.map(() => "Ingress"));
  assert.deepEqual(service, run("status", "-f", shopFile, "--service", "ingress-nginx/ingress-nginx-controller", "--json"));
  let native;
  try {
    run("validate", "-f", invalidFile, "--json");
  } catch (e) {
    native = JSON.parse(e.stdout); // exit code 1: an object is invalid
  }
  const { ok, ...rest } = report_with_source(outputs.validation, invalidFile);
  assert.deepEqual(rest, native);
}

// ---- tests files: written by a router, read back, run here and by the CLI with the same answers
{
  const requests = [
    "https://shop.example.com/cart/items?id=1",
    { name: "a POST with headers", request: { host: "shop.example.com", path: "/nowhere", method: "POST", headers: { "X-Canary": "always" } } },
    { url: "http://unknown.example.org/", method: "GET" },
  ];
  const text = router.writeTests(requests, "pinned by consumer.mjs");
  assert.match(text, /^# pinned by consumer.mjs\n/);
  const file = readTests(text);
  assert.deepEqual(file.options, { ingressClass: "nginx" });
  assert.deepEqual(file.tests[1].request, requests[1].request);
  assert.equal(file.tests[1].name, "a POST with headers");
  const report = runTests(shop, text);
  assert.deepEqual([report.passed, report.failed], [3, 0]);
  assert.deepEqual(report.results[0].actual, cart);
  assert.throws(() => readTests("tests:\n- request: {url: http://a/}\n  expect: {backend: x, colour: red}\n"),
    (e) => e instanceof IngressRouterError && e.kind === "shape" && e.source === "<tests>" && e.line === 3 && e.field === "tests[0].expect");
  if (cli) {
    const path = join(tmpdir(), `consumer-tests-${process.pid}.yaml`);
    writeFileSync(path, text);
    const native = JSON.parse(execFileSync(cli, ["test", "-f", shopFile, path, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
    assert.deepEqual(report, native);
  }
}

// ---- every routing case: route, explain, table and validate deep-equal to the CLI's --json
if (cli && casesFile) {
  const cases = JSON.parse(readFileSync(casesFile, "utf8"));
  assert.ok(cases.length > 0, "no routing cases");
  const run = (...args) => {
    try {
      return JSON.parse(execFileSync(cli, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
    } catch (e) {
      if (e.status === 1 && e.stdout) return JSON.parse(e.stdout); // validate: an object is invalid
      throw e;
    }
  };
  for (const c of cases) {
    const manifests = join(tmpdir(), `consumer-case-${process.pid}.json`);
    // The same text on both sides, so that validation errors point at the same lines.
    const text = JSON.stringify(c.ingresses);
    writeFileSync(manifests, text);
    const options = c.options ?? {};
    const f = ["-f", manifests, "--options", JSON.stringify(options)];
    const compiled = compile(text, options);
    const target = c.request.url ? [c.request.url] : [c.request.host, c.request.path];
    assert.deepEqual(compiled.route(c.request), run("route", ...f, "--json", ...target), `${c.id}: route`);
    if (c.request.url && Object.keys(c.request).length === 1) {
      // route(url) takes the string fast path; it answers as the request object does, twice (cached).
      assert.deepEqual(compiled.route(c.request.url), compiled.route(c.request), `${c.id}: route(url)`);
      assert.deepEqual(compiled.route(c.request.url), compiled.route(c.request), `${c.id}: route(url) again`);
    }
    assert.deepEqual(compiled.explain(c.request), run("explain", ...f, "--json", ...target), `${c.id}: explain`);
    assert.deepEqual(compiled.table(), run("table", ...f, "--json"), `${c.id}: table`);
    const { ok, ...npmReport } = report_with_source(compiled.validate(), manifests);
    assert.deepEqual(npmReport, run("validate", "-f", manifests, "--options", JSON.stringify(options), "--json"), `${c.id}: validate`);
    compiled.free();
  }
  console.log(`consumer test: ${cases.length} routing cases give deep-equal route, explain, table and validate in npm and the CLI`);
}

// ---- the Gateway API: every case of tests/cases/gateway.json the options can express routes in
// npm as in the CLI (the same DecisionView, deep-equal), or both refuse it.
if (cli && gatewayCasesFile) {
  const { cases } = JSON.parse(readFileSync(gatewayCasesFile, "utf8"));
  const cliJson = (args) => {
    try {
      return { ok: JSON.parse(execFileSync(cli, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) };
    } catch (e) {
      return { failed: e.status };
    }
  };
  // Every case: its options (gateway, regexOrder, checkServices) are compile options in npm and
  // `--options` for the CLI.
  let routed = 0;
  for (const c of cases) {
    const manifests = join(tmpdir(), `consumer-gateway-${process.pid}.json`);
    const text = JSON.stringify(c.objects);
    writeFileSync(manifests, text);
    const options = c.options ?? {};
    const args = ["route", "-f", manifests, "--json", c.request.url, "-X", c.request.method ?? "GET", "--options", JSON.stringify(options)];
    // The cases list headers as [name, value] pairs; a request object holds them by name.
    const pairs = c.request.headers ?? [];
    for (const [name, value] of pairs) args.push("-H", `${name}: ${value}`);
    const request = { url: c.request.url, method: c.request.method, headers: pairs.length ? Object.fromEntries(pairs) : undefined };
    const native = cliJson(args);
    let npm;
    try {
      const router = compile(text, options);
      npm = { ok: router.route(request) };
      if (!c.request.method && !pairs.length) {
        // The fast paths of a Gateway API router answer as its general path.
        assert.deepEqual(router.route(c.request.url), npm.ok, `${c.id}: route(url)`);
        const u = new URL(c.request.url);
        const parts = { host: u.host, path: u.pathname + u.search };
        assert.deepEqual(router.route(parts), router.route({ ...parts, method: "GET" }), `${c.id}: route({host, path})`);
      }
      router.free();
    } catch (e) {
      assert.ok(e instanceof IngressRouterError, `${c.id}: ${e}`);
      npm = { failed: true };
    }
    if (native.ok) {
      assert.deepEqual(npm.ok, native.ok, `${c.id}: route`);
      routed++;
    } else {
      assert.ok(npm.failed, `${c.id}: the CLI refuses it (exit ${native.failed}) and npm answers ${JSON.stringify(npm.ok)}`);
    }
  }
  assert.ok(routed >= cases.length - 1, `every case routes but the one both refuse: ${routed}`);
  console.log(`consumer test: ${routed} of ${cases.length} Gateway API cases route deep-equal in npm and the CLI (the others refused by both)`);
}

// ---- the migration: every pair test.sh put in the migration folder (examples/migration as
// careful.yaml, each tests/cases/migration/<name> as <name>.yaml beside its <name>.expected-causes):
// migrate() finds what `diff --to gateway-api` finds, the expected causes among them, and the
// agreed answers it pins pass.
if (cli && migrationDir) {
  const pairs = readdirSync(migrationDir).filter((f) => f.endsWith(".yaml")).map((f) => f.slice(0, -".yaml".length)).sort();
  assert.ok(pairs.includes("careful") && pairs.length > 1, `the careful translation and the mistakes: ${pairs}`);
  let differing = 0;
  for (const name of pairs) {
    const text = readFileSync(join(migrationDir, `${name}.yaml`), "utf8");
    const report = migrate(text);
    const file = join(tmpdir(), `consumer-migration-${process.pid}.yaml`);
    writeFileSync(file, text);
    let native;
    try {
      native = JSON.parse(execFileSync(cli, ["diff", "--to", "gateway-api", "-f", file, "--json"], { encoding: "utf8" }));
    } catch (e) {
      assert.equal(e.status, 1, `${name}: diff exits 1 on a difference, and only then fails`);
      native = JSON.parse(e.stdout);
    }
    const { tests, differences, ...rest } = report;
    assert.deepEqual(rest, native, `${name}: migrate() and diff --to gateway-api --json`);
    const found = report.causes.map((c) => c.cause);
    if (name === "careful") {
      // The careful translation changes no answer.
      assert.deepEqual([differences, found], [0, []], name);
    } else {
      const { causes: expected } = JSON.parse(readFileSync(join(migrationDir, `${name}.expected-causes`), "utf8"));
      assert.ok(expected.length > 0, `${name}: expected-causes names a cause`);
      for (const cause of expected) assert.ok(found.includes(cause), `${name}: ${cause} not among ${found}`);
      assert.ok(differences > 0, `${name}: a mistake changes an answer`);
      differing++;
    }
    // The agreed answers, pinned for the Gateway API routing, pass.
    const replay = runTests(text, tests);
    assert.ok(replay.passed > 0 && replay.failed === 0, `${name}: ${JSON.stringify(replay.results.filter((r) => !r.passed))}`);
    if (name === "trailing-slash") {
      const slash = report.causes.find((c) => c.cause === "trailing-slash-redirect");
      assert.equal(slash.differences[0].ingress.redirect, "http://docs.example.com/guide/");
    }
  }
  console.log(`consumer test: ${pairs.length} migration pairs (the careful one and ${differing} mistakes) give deep-equal migrate() and diff --to gateway-api, their expected causes, and passing pinned tests`);
  // gatewayStatus: the status the CLI's `status --json` writes for the same objects.
  const text = readFileSync(join(migrationDir, "careful.yaml"), "utf8");
  const status = gatewayStatus(text, { transitionTime: "2026-01-02T03:04:05Z" });
  const route = status.objects.find((o) => o.kind === "HTTPRoute");
  assert.equal(route.status.parents[0].conditions.find((c) => c.type === "Accepted").status, "True");
  const listener = status.objects.find((o) => o.kind === "Gateway").status.listeners[0];
  assert.equal(listener.attachedRoutes, 1);
  // A migrate() option that is not one is refused by name.
  assert.throws(() => migrate(text, { from: "nginx" }), (e) => e instanceof IngressRouterError && e.kind === "options");
  console.log("consumer test: migrate() and gatewayStatus() answer as the CLI does");
}

// ---- convert(): the objects `migrate` writes for one ingress-nginx behaviour a file, deep-equal
// to the CLI's `migrate --json`, every difference of the proof explained by the report.
if (cli && migrateDir) {
  const files = readdirSync(migrateDir).filter((f) => f.endsWith(".yaml")).sort();
  assert.ok(files.length >= 20, `the behaviours: ${files}`);
  const certificate = "ingress-nginx/default-tls";
  for (const file of files) {
    const path = join(migrateDir, file);
    const text = readFileSync(path, "utf8");
    const converted = convert(text, { defaultCertificate: certificate });
    let native;
    try {
      native = JSON.parse(execFileSync(cli, ["migrate", "-f", path, "--default-certificate", certificate, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
    } catch (e) {
      assert.equal(e.status, 1, `${file}: migrate exits 1 on a difference, and only then fails`);
      native = JSON.parse(e.stdout);
    }
    const { yaml, differences, unexplained, ...rest } = converted;
    assert.deepEqual(rest, native, `${file}: convert() and migrate --json`);
    assert.equal(unexplained, 0, `${file}: every difference is explained by the report`);
    assert.equal(converted.explainedBy.length, differences, file);
    for (const notes of converted.explainedBy) {
      assert.ok(notes.length > 0 && notes.every((n) => converted.translation.notes[n].outcome !== "translated"), file);
    }
    assert.equal(differences, converted.proof.causes.reduce((n, c) => n + c.differences.length, 0), file);
    // The YAML reads back as the objects written.
    assert.equal(compile(yaml).table().ingresses.length, 0, file);
    assert.ok(yaml.startsWith("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\n"), file);
    if (file === "canary-header.yaml") outputs.conversion = converted;
  }
  // An option that is not one is refused by name; several Gateways and none chosen, as the CLI does.
  assert.throws(() => convert("{}", { gatewayClass: 7 }), (e) => e instanceof IngressRouterError && e.kind === "options");
  console.log(`consumer test: convert() writes and proves ${files.length} ingress-nginx behaviours as migrate --json does`);
}

function report_with_source(r, source) {
  return JSON.parse(JSON.stringify(r).replaceAll('"source":"<input>"', `"source":${JSON.stringify(source)}`));
}

// ---- the ingress-nginx profile (nginx.yaml, beside this script): the same requests answer
// differently under `spec`.
{
  const manifests = readFileSync("nginx.yaml", "utf8");
  const nginx = compile(manifests, { profile: "ingress-nginx" });
  const spec = compile(manifests, { profile: "spec" });
  const svc = (name, number) => ({ service: { name, port: { number } } });

  // use-regex + rewrite-target: the regex location wins and the upstream gets the capture.
  const rewrite = nginx.route("https://regex.example.com/api/users?page=2");
  assert.deepEqual(rewrite.backend, svc("api", 8080));
  assert.equal(rewrite.via, "rule");
  assert.equal(rewrite.matched.path, "/api(/|$)(.*)");
  assert.equal(rewrite.upstreamPath, "/users?page=2");
  assert.equal(rewrite.redirect, undefined);
  assert.equal(rewrite.split, undefined);
  // The same rule for another path: the rewritten path is the request's own, never a view cached
  // from the rule's first request.
  assert.equal(nginx.route("https://regex.example.com/api/orders/7").upstreamPath, "/orders/7");
  assert.equal(nginx.route({ host: "regex.example.com", path: "/api/x", scheme: "https" }).upstreamPath, "/x");
  // The same through the `{host, path}` fast path (answer slots): a rewrite is never a shared answer.
  assert.equal(nginx.route({ host: "regex.example.com", path: "/api/orders/7" }).upstreamPath, "/orders/7");
  assert.equal(nginx.route({ host: "regex.example.com", path: "/api/x" }).upstreamPath, "/x");
  // The specification has no regexes: the literal path does not match, `/` does, nothing is rewritten.
  const literal = spec.route("https://regex.example.com/api/users?page=2");
  assert.deepEqual([literal.backend, literal.matched.path, literal.upstreamPath], [svc("web", 80), "/", undefined]);

  // A canary by header: the headers decide (names are case-insensitive); the spec profile ignores them.
  const canary = { host: "canary.example.com", path: "/", headers: { "x-canary": "always" } };
  assert.deepEqual(nginx.route(canary).backend, svc("app-v2", 80));
  assert.deepEqual(nginx.route({ ...canary, headers: { "X-Canary": "never" } }).backend, svc("app-v1", 80));
  assert.equal(spec.route(canary).split, undefined);
  assert.notDeepEqual(spec.route(canary).backend, svc("app-v2", 80));
  // By weight: the decision is the split itself, the same on every call (never a random pick).
  const weighted = nginx.route("https://canary.example.com/");
  assert.equal(weighted.backend, null);
  assert.deepEqual(weighted.split, [
    { label: "app-v1:80", backend: svc("app-v1", 80), weight: 90 },
    { label: "app-v2:80", backend: svc("app-v2", 80), weight: 10 },
  ]);
  for (let i = 0; i < 20; i++) assert.deepEqual(nginx.route("https://canary.example.com/"), weighted);
  assert.deepEqual(nginx.route({ host: "canary.example.com", path: "/", headers: {} }), weighted);

  // ssl-redirect (the host has TLS) reads the URL's scheme; app-root redirects `/`.
  const tls = nginx.route("http://secure.example.com/account");
  assert.deepEqual([tls.via, tls.backend, tls.redirect], ["redirect", null, { status: 308, location: "https://secure.example.com/account" }]);
  assert.deepEqual(nginx.route("https://secure.example.com/account").backend, svc("secure", 443));
  // As parts, the scheme is a field (default http); anything but http/https is refused.
  assert.deepEqual(nginx.route({ host: "secure.example.com", path: "/account", scheme: "https" }).backend, svc("secure", 443));
  assert.equal(nginx.route({ host: "secure.example.com", path: "/account", method: "GET" }).redirect.status, 308);
  assert.throws(() => nginx.route({ host: "secure.example.com", path: "/", scheme: "ftp" }), (e) => e instanceof IngressRouterError && e.kind === "request" && /scheme/.test(e.message));
  assert.throws(() => nginx.route({ host: "canary.example.com", path: "/", headers: { "X-Canary": 1 } }), (e) => e instanceof IngressRouterError && e.kind === "request");
  const root = nginx.route("https://secure.example.com/");
  assert.deepEqual(root.redirect, { status: 302, location: "https://secure.example.com/app" });
  const plain = spec.route("http://secure.example.com/");
  assert.deepEqual([plain.via, plain.backend, plain.redirect], ["rule", svc("secure", 443), undefined]);

  // explain names the nginx rule that decided, and the trace is in nginx's terms.
  const why = nginx.explain("https://regex.example.com/api/users");
  assert.match(why.decidedBy, /^regex location ~\* \^\/api\(\/\|\$\)\(\.\*\) is /);
  assert.ok(why.steps.some((s) => s.startsWith("location ~* ^/api(/|$)(.*) from spec.rules[0].http.paths[0]")), why.steps.join("\n"));
  assert.ok(why.steps.includes("rewrite-target: the upstream receives /users"), why.steps.join("\n"));
  assert.equal(why.decision.upstreamPath, "/users");
  assert.equal(spec.explain("https://regex.example.com/api/users").steps, undefined);
  const splitWhy = nginx.explain({ host: "canary.example.com", path: "/", headers: { "X-Canary": "always" } });
  assert.deepEqual([splitWhy.decision.label, splitWhy.decision.via], ["app-v2:80", "rule"]);
  assert.equal(nginx.explain("https://canary.example.com/").decision.split.length, 2);

  outputs.decisionRewrite = rewrite;
  outputs.decisionSplit = weighted;
  outputs.decisionRedirect = tls;
  outputs.explanationNginx = why;
  outputs.explanationRedirect = nginx.explain("http://secure.example.com/account");
  nginx.free();
  spec.free();
}

// ---- bounded regex work (issue 28): the limits are compile options; a request past the scan
// budget gets "no match" from the regexes it could not afford, and its decision says so.
{
  const regexIngress = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: api, namespace: api, annotations: {nginx.ingress.kubernetes.io/use-regex: "true"}}
spec:
  ingressClassName: nginx
  rules:
  - host: api.example.com
    http:
      paths:
      - {path: "/v[0-9]+/.*z", pathType: ImplementationSpecific, backend: {service: {name: api, port: {number: 80}}}}
`;
  const bounded = compile(regexIngress, { profile: "ingress-nginx", regexLimits: { scan: 64 } });
  const short = bounded.route("http://api.example.com/v1/z");
  assert.equal(short.label, "api:80");
  assert.equal(short.regexBudgetExhausted, undefined);
  const long = bounded.route(`http://api.example.com/v1/${"a".repeat(100)}z`);
  assert.equal(long.regexBudgetExhausted, true);
  assert.notEqual(long.label, "api:80");
  outputs.decisionRegexBudget = long;
  // A pattern over the size limit is refused by name.
  const small = compile(regexIngress, { profile: "ingress-nginx", regexLimits: { size: 64 } });
  assert.equal(small.route("http://api.example.com/v1/z").label, "404");
  assert.ok(small.diagnostics.some((d) => /regex size limit of 64 bytes/.test(d.message)), "the refusal is a diagnostic");
  bounded.free();
  small.free();
}

// ---- GRPCRoute: a route kind of the one core; `grpc` writes the call, the decision says its gRPC status
{
  const grpcManifests = [
    { apiVersion: "gateway.networking.k8s.io/v1", kind: "Gateway", metadata: { name: "grpc", namespace: "infra" },
      spec: { gatewayClassName: "eg", listeners: [{ name: "h2c", port: 80, protocol: "HTTP", allowedRoutes: { namespaces: { from: "All" } } }] } },
    { apiVersion: "gateway.networking.k8s.io/v1", kind: "GRPCRoute", metadata: { name: "echo", namespace: "apps" },
      spec: { parentRefs: [{ name: "grpc", namespace: "infra" }], hostnames: ["grpc.example.com"],
              rules: [{ matches: [{ method: { service: "echo.v1.Echo", method: "Echo" } }], backendRefs: [{ name: "echo", port: 8080 }] }] } },
  ];
  const grpcRouter = compile(grpcManifests);
  const echo = grpcRouter.route({ host: "grpc.example.com", grpc: "echo.v1.Echo/Echo" });
  assert.equal(echo.label, "apps/echo:8080");
  assert.equal(echo.routeKind, "GRPCRoute");
  assert.equal(echo.grpcStatus, undefined, "a forwarded call has no status of the proxy's");
  assert.equal(echo.grpcStatusName, undefined);
  // The same call written out: POST, the gRPC content type, the path.
  const written = grpcRouter.route({ url: "http://grpc.example.com/echo.v1.Echo/Echo", method: "POST", headers: { "content-type": "application/grpc" } });
  assert.deepEqual(written, echo);
  const missing = grpcRouter.route({ host: "grpc.example.com", grpc: "echo.v1.Echo/Reverse" });
  assert.equal(missing.status, 404);
  assert.equal(missing.grpcStatus, 12, "UNIMPLEMENTED");
  assert.equal(missing.grpcStatusName, "UNIMPLEMENTED", "the core names the status");
  outputs.decisionGrpc = missing;
  throws(() => grpcRouter.route({ host: "grpc.example.com", grpc: "echo.v1.Echo" }), "request");
  const status = gatewayStatus(grpcManifests);
  const route = status.objects.find((o) => o.kind === "GRPCRoute");
  assert.equal(route.status.parents[0].conditions[0].reason, "Accepted");
  grpcRouter.free();
}

// ---- the real outputs, typed
const types = {
  decisionRule: "Decision",
  decisionDefault: "Decision",
  explanation: "Explanation",
  explanation404: "Explanation",
  explanationNormalized: "Explanation",
  table: "Table",
  diagnostics: "Diagnostic[]",
  validation: "ValidationReport",
  validationStrict: "ValidationReport",
  status: "StatusReport",
  statusMissing: "StatusReport",
  service: "ServiceView",
  decisionRewrite: "Decision",
  decisionSplit: "Decision",
  decisionRedirect: "Decision",
  explanationNginx: "Explanation",
  explanationRedirect: "Explanation",
  decisionRegexBudget: "Decision",
  decisionGrpc: "Decision",
  conversion: "Conversion",
};
let ts = 'import type { Decision, Explanation, Table, Diagnostic, ValidationReport, StatusReport, ServiceView, Conversion } from "ingress-router";\n';
for (const [name, type] of Object.entries(types)) ts += `export const ${name}: ${type} = ${JSON.stringify(outputs[name], null, 1)};\n`;
writeFileSync("outputs.ts", ts);
console.log(`consumer test: ok (ingress-router ${version})`);

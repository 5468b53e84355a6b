// The `ingress-router/route-only` entry as a user gets it (the packed package installed): importing
// it starts only the route-only module; its loadTable() routers answer every routing case as the
// compiled routers do; tables the CLI writes load; a bad table is refused (kind "table"); and a call
// that reads manifests (compile) loads the full module on first use, with the same API.
// Arguments: the shop manifests (one YAML stream), the native CLI, tests/cases/routing.json, a scratch folder.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";

const [shopFile, cli, casesFile, scratch] = process.argv.slice(2);

// Which .wasm the entry reads, and when: every read of the package goes through fs.readFileSync.
const readFileSync = fs.readFileSync;
const read = [];
fs.readFileSync = (file, ...rest) => {
  read.push(String(file instanceof URL ? file.pathname : file).split("/").pop());
  return readFileSync(file, ...rest);
};
syncBuiltinESMExports();
const wasmRead = () => read.filter((f) => f.endsWith(".wasm"));

const { loadTable, compile, version, IngressRouterError } = await import("ingress-router/route-only");
assert.deepEqual(wasmRead(), ["ingress_router_route_bg.wasm"], "the entry starts the route-only module only");
assert.match(version, /^\d+\.\d+\.\d+/);

// ---- a table the CLI wrote, routed as the CLI routes it
const table = join(scratch, "shop.table");
execFileSync(cli, ["compile", "-f", shopFile, "--ingress-class", "nginx", "-o", table], { stdio: ["ignore", "ignore", "ignore"] });
const bytes = readFileSync(table);
const router = loadTable(bytes);
const cart = router.route("https://shop.example.com/cart/items?id=1");
assert.deepEqual(cart, {
  label: "cart-api:80",
  backend: { service: { name: "cart-api", port: { number: 80 } } },
  via: "rule",
  status: 200,
  matched: { ingress: "shop/storefront", host: "shop.example.com", path: "/cart", pathType: "Prefix", field: "spec.rules[0].http.paths[0]" },
});
// Every form of the request; the fast paths give the very object the general path gives.
assert.equal(router.route({ host: "shop.example.com", path: "/cart/items" }), cart);
assert.deepEqual(router.route({ host: "shop.example.com", path: "/cart/items", method: "POST", headers: { a: "b" } }), cart);
assert.ok(Object.isFrozen(cart));
const cliJson = (args) => JSON.parse(execFileSync(cli, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
for (const url of ["https://shop.example.com/cart/checkout", "https://api.example.com/v2/orders", "http://tenant-a.shop.example.com/", "http://unknown.example.org/x", "https://shop.example.com/static/app.js"]) {
  assert.deepEqual(router.route(url), cliJson(["route", "--json", "-f", table, url]), url);
  assert.deepEqual(router.explain(url), cliJson(["explain", "--json", "-f", table, url]), url);
}
assert.deepEqual(router.table(), cliJson(["table", "--json", "-f", table]));
assert.deepEqual(router.diagnostics, []);
// An ArrayBuffer is a table too.
assert.deepEqual(loadTable(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).route("https://shop.example.com/cart"), router.route("https://shop.example.com/cart"));

// ---- bad tables: refused with the reason, kind "table"; the next call works
function refused(input, pattern) {
  let caught;
  try {
    loadTable(input);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof IngressRouterError, `expected IngressRouterError, got ${caught}`);
  assert.equal(caught.kind, "table", caught.message);
  assert.match(caught.message, pattern);
  assert.equal(loadTable(bytes).route("https://shop.example.com/cart").label, "cart-api:80", "the next call works");
}
refused(new Uint8Array(0), /not an ingress-router table/);
refused(new TextEncoder().encode("apiVersion: v1\nkind: Service\n"), /not an ingress-router table/);
refused(bytes.subarray(0, bytes.length - 1), /truncated/);
const damaged = Uint8Array.from(bytes);
damaged[damaged.length - 1] ^= 1;
refused(damaged, /checksum does not match/);
const newer = Uint8Array.from(bytes);
newer[8] = 2;
refused(newer, /table format 2 .* reads format 1/);
assert.throws(() => router.validate(), (e) => e.kind === "argument" && /loaded from a table file/.test(e.message));
assert.deepEqual(wasmRead(), ["ingress_router_route_bg.wasm"], "loading tables needs nothing else");

// ---- every routing case: a table written by the CLI, loaded here in the route-only module, answers
// as the case expects and as compile() of the same manifests does (in the full module, loaded below)
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const loaded = cases.map((c) => {
  const manifests = join(scratch, "case.json");
  fs.writeFileSync(manifests, JSON.stringify(c.ingresses));
  const file = join(scratch, "case.table");
  execFileSync(cli, ["compile", "-f", manifests, "--options", JSON.stringify(c.options ?? {}), "-o", file], { stdio: ["ignore", "ignore", "ignore"] });
  const r = loadTable(readFileSync(file));
  const answer = r.route(c.request);
  assert.equal(answer.label, c.expect.backend, `${c.id}: ${JSON.stringify(answer)}`);
  return { c, answer, explained: r.explain(c.request) };
});
assert.deepEqual(wasmRead(), ["ingress_router_route_bg.wasm"]);
// compile() reads manifests: the full module is loaded on this first call (Node: synchronously).
for (const { c, answer, explained } of loaded) {
  const compiled = compile(c.ingresses, c.options ?? {});
  assert.deepEqual(answer, compiled.route(c.request), c.id);
  assert.deepEqual(explained, compiled.explain(c.request), c.id);
  // toTable() in the full module gives the bytes the CLI wrote for the same manifests and options.
  assert.deepEqual(loadTable(compiled.toTable()).route(c.request), answer, c.id);
}
assert.deepEqual(wasmRead(), ["ingress_router_route_bg.wasm", "ingress_router_engines_bg.wasm"], "compile() loaded the full module");
// A profile without a table format is refused by name.
assert.throws(() => compile(readFileSync(shopFile, "utf8"), { profile: "ingress-nginx" }).toTable(), (e) => e.kind === "table" && /only the spec profile/.test(e.message));

// ---- the main entry: its first module writes and loads no tables; loadTable() runs in the second
// module (Node loads it on that call), and toTable() says to load the second module before compiling.
const mainEntry = `
  import assert from "node:assert/strict";
  import { readFileSync } from "node:fs";
  import { compile, load, loadTable } from "ingress-router";
  const shop = readFileSync(${JSON.stringify(shopFile)}, "utf8");
  const first = compile(shop, { ingressClass: "nginx" });
  assert.throws(() => first.toTable(), (e) => e.kind === "engine" && /await load\(\)/.test(e.message));
  const loaded = loadTable(readFileSync(${JSON.stringify(table)}));
  assert.deepEqual(loaded.route("https://shop.example.com/cart/x"), first.route("https://shop.example.com/cart/x"));
  await load();
  const again = loadTable(compile(shop, { ingressClass: "nginx" }).toTable());
  assert.deepEqual(again.table(), first.table());
`;
execFileSync(process.execPath, ["--input-type=module", "-e", mainEntry], { stdio: "inherit" });

console.log(`route-only entry: ${loaded.length} routing cases loaded from CLI tables answer as compiled; bad tables refused; compile() loads the full module: ok`);

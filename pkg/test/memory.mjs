// 10 000 compile/free cycles (with routing, explaining and errors in between) keep the wasm
// memory flat; routers dropped without free() are reclaimed through the FinalizationRegistry.
// Run with --expose-gc.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { compile, validate } from "../dist/node.js";
import { modules } from "../dist/instance.js";

const memory = modules.first.memory();
const dir = new URL("../../examples/shop/manifests/", import.meta.url);
const shop = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), "utf8")).join("\n---\n");

function cycle(i) {
  const router = compile(shop, { ingressClass: "nginx" });
  router.route({ host: "shop.example.com", path: `/cart/${i}` });
  if (i % 10 === 0) router.explain("https://shop.example.com/cart");
  if (i % 100 === 0) router.table(), router.diagnostics, validate(shop);
  router.free();
  if (i % 50 === 0) {
    try {
      compile("kind: [broken");
    } catch {}
  }
}

for (let i = 0; i < 1000; i++) cycle(i); // warm up: the allocator reaches its working size
const warm = memory.buffer.byteLength;
for (let i = 0; i < 10_000; i++) cycle(i);
const after = memory.buffer.byteLength;
console.log(`wasm memory: ${warm} bytes after 1 000 cycles, ${after} after 10 000 more`);
assert.equal(after, warm, "compile/free cycles grow the wasm memory");

// Dropped without free(): the garbage collector's FinalizationRegistry frees them.
const big = JSON.stringify(
  Array.from({ length: 200 }, (_, n) => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: `i${n}`, namespace: "default" },
    spec: { rules: [{ host: `h${n}.example.com`, http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "s", port: { number: 80 } } } }] } }] },
  })),
);
const rounds = [];
for (let round = 0; round < 6; round++) {
  for (let i = 0; i < 200; i++) compile(big).route("http://h1.example.com/");
  for (let turn = 0; turn < 5; turn++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  rounds.push(memory.buffer.byteLength);
}
console.log(`wasm memory after rounds of 200 unfreed routers: ${rounds.join(", ")}`);
// A round of 200 routers takes about 6 MB (the first round's growth): were dropped routers kept,
// every round would add as much. The allocator may still take a page or two while it settles
// (when the collector runs decides which), so the test allows under 1 MiB over four rounds.
const growth = rounds.at(-1) - rounds[1];
assert.ok(growth < 1 << 20, `routers dropped without free() are not reclaimed: ${rounds.join(", ")}`);
// The route() fast paths write requests into a view of the module's memory. Growing the memory
// detaches every view of it: after a compile that grows it, they still answer as the general path
// (a request with a method, {url}), and twice (the cached answer).
{
  const router = compile(shop, { ingressClass: "nginx" });
  const paths = ["/cart/a", "/", "/nowhere", "/cart/" + "b".repeat(5000)];
  const answers = () =>
    paths.flatMap((path) => [router.route({ host: "shop.example.com", path }), router.route(`http://shop.example.com${path}`)]);
  const general = paths.flatMap((path) => [
    router.route({ host: "shop.example.com", path, method: "GET" }),
    router.route({ url: `http://shop.example.com${path}` }),
  ]);
  assert.deepEqual(answers(), general);
  const before = memory.buffer.byteLength;
  const grown = compile(
    JSON.stringify(
      Array.from({ length: 4000 }, (_, n) => ({
        apiVersion: "networking.k8s.io/v1",
        kind: "Ingress",
        metadata: { name: `g${n}`, namespace: "default" },
        spec: { rules: [{ host: `g${n}.example.com`, http: { paths: Array.from({ length: 10 }, (_, p) => ({ path: `/p${p}`, pathType: "Prefix", backend: { service: { name: `s${p}`, port: { number: 80 } } } })) } }] },
      })),
    ),
  );
  assert.ok(memory.buffer.byteLength > before, `the compile did not grow the memory (${before} bytes)`);
  assert.deepEqual(answers(), general, "after the memory grew");
  assert.deepEqual(answers(), general, "after the memory grew, again");
  assert.equal(grown.route({ host: "g3999.example.com", path: "/p9/x" }).backend.service.name, "s9");
  grown.free();
  router.free();
}
console.log("memory test: ok");

// A trap inside the wasm is contained (test/trap/scenario.js), in Node. Argument: a package folder
// built with the test-trap feature (pkg/scripts/test.sh makes it). Run with --expose-gc: routers of
// a dead instance that are dropped without free() are collected without an error.
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { trapScenario } from "./trap/scenario.js";

const dir = pathToFileURL(`${process.argv[2]}/`);
const pkg = await import(new URL("node.js", dir));
const instance = (await import(new URL("instance.js", dir))).modules.first;
const seen = trapScenario(pkg, instance);
console.log(`trapped twice, recovered twice: ${seen[0]}`);

// Dropped routers of a dead instance: the glue's finalizers run on that instance, quietly.
const yaml = '{"kind": "Ingress", "metadata": {"name": "a"}, "spec": {"defaultBackend": {"service": {"name": "s", "port": {"number": 80}}}}}';
for (let i = 0; i < 100; i++) pkg.compile(yaml);
assert.throws(() => instance.run("__panicForTest", (glue) => glue.__panicForTest()), (e) => e.kind === "internal");
let uncaught = null;
const record = (e) => (uncaught = e);
process.on("uncaughtException", record);
for (let turn = 0; turn < 5; turn++) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
}
process.off("uncaughtException", record);
assert.equal(uncaught, null, `an error after collecting a dead instance's routers: ${uncaught}`);
assert.equal(pkg.compile(yaml).route("http://any/").via, "defaultBackend");

// Where synchronous instantiation is refused (simulated), the module is instantiated in the
// background: calls until then throw a clear "internal" error, then work.
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function () {
  throw new RangeError("synchronous instantiation refused (simulated)");
};
try {
  assert.throws(() => instance.run("__panicForTest", (glue) => glue.__panicForTest()), (e) => e.kind === "internal");
} finally {
  WebAssembly.Instance = Instance;
}
assert.throws(() => pkg.compile(yaml), (e) => e instanceof pkg.IngressRouterError && e.kind === "internal" && /try again in a moment/.test(e.message));
let waited = 0;
for (; waited < 500; waited++) {
  await new Promise((resolve) => setTimeout(resolve, 10));
  try {
    pkg.compile(yaml);
    break;
  } catch (e) {
    assert.equal(e.kind, "internal");
  }
}
assert.equal(pkg.compile(yaml).route("http://any/").via, "defaultBackend", "instantiated in the background");
console.log(`instantiated in the background when synchronous instantiation is refused (within ${(waited + 1) * 10} ms): ok`);

// The second module is contained and renewed on its own: its routers are lost, the first
// module's are not, and both answer afterwards. (The test build's two modules are one build, with
// the engines: load() puts the second in charge.)
const { modules } = await import(new URL("instance.js", dir));
const nginx = '{"kind": "Ingress", "metadata": {"name": "a", "annotations": {"nginx.ingress.kubernetes.io/ssl-redirect": "true"}}, "spec": {"tls": [{"hosts": ["a"]}], "rules": [{"host": "a", "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "s", "port": {"number": 80}}}}]}}]}}';
const firstRouter = pkg.compile(yaml);
await pkg.load();
assert.ok(modules.second && modules.second !== modules.first, "load() loaded the second module");
const nginxRouter = pkg.compile(nginx, { profile: "ingress-nginx" });
assert.equal(nginxRouter.route("http://a/").via, "redirect");
assert.throws(() => modules.second.run("__panicForTest", (glue) => glue.__panicForTest()), (e) => e.kind === "internal");
assert.throws(() => nginxRouter.route("http://a/"), (e) => e.kind === "lost");
assert.equal(firstRouter.route("http://any/").via, "defaultBackend", "the first module's router lives on");
assert.equal(pkg.compile(nginx, { profile: "ingress-nginx" }).route("http://a/").via, "redirect", "the second module answers again");
console.log("a trap in the second module: contained, renewed; the first module's routers live on: ok");
console.log("trap test (Node): ok");

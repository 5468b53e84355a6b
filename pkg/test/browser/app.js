// Bundled by esbuild as a user's app would be: the package imported by name.
import { compile, load, IngressRouterError, version } from "ingress-router";

// The .wasm files this page has fetched so far, by name.
const fetched = () =>
  performance
    .getEntriesByType("resource")
    .map((e) => e.name.split("/").pop())
    .filter((name) => name.endsWith(".wasm"));

const shop = await (await fetch("shop.yaml")).text();
const nginx = await (await fetch("nginx.yaml")).text();
const router = compile(shop, { ingressClass: "nginx" });
let error;
try {
  compile("kind: [x\n");
} catch (e) {
  error = { isIngressRouterError: e instanceof IngressRouterError, kind: e.kind, line: e.line };
}
const result = {
  version,
  decision: router.route("https://shop.example.com/cart/items?id=1"),
  explained: router.explain({ host: "shop.example.com", path: "/cart" }).decision,
  error,
  after: compile(shop).route("https://api.example.com/v2").via,
};
router.free();

// The ingress-nginx profile is in the second module: refused with the `engine` kind until load(),
// and nothing is fetched before.
try {
  compile(nginx, { profile: "ingress-nginx" });
} catch (e) {
  result.beforeLoad = { isIngressRouterError: e instanceof IngressRouterError, kind: e.kind, message: e.message };
}
result.fetchedBeforeLoad = fetched();
await load();
result.nginx = compile(nginx, { profile: "ingress-nginx" }).route("https://regex.example.com/api/users").label;
result.spec = compile(nginx).route("https://regex.example.com/api/users").label;
result.fetchedAfterLoad = fetched();
window.result = result;

// Bundled by esbuild as a user's app would be: the package imported by name.
import { compile, IngressRouterError, version } from "ingress-router";

const shop = await (await fetch("shop.yaml")).text();
const router = compile(shop, { ingressClass: "nginx" });
let error;
try {
  compile("kind: [x\n");
} catch (e) {
  error = { isIngressRouterError: e instanceof IngressRouterError, kind: e.kind, line: e.line };
}
window.result = {
  version,
  decision: router.route("https://shop.example.com/cart/items?id=1"),
  explained: router.explain({ host: "shop.example.com", path: "/cart" }).decision,
  error,
  after: compile(shop).route("https://api.example.com/v2").via,
};
router.free();

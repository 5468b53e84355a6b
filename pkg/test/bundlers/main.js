// A user's app, bundled by Vite and by webpack with no configuration for the package: the
// package and its element imported by name; the bundler emits the .wasm itself.
import { compile } from "ingress-router";
import "ingress-router/element";

const manifests = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: app}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      - {path: /cart, pathType: Prefix, backend: {service: {name: cart-api, port: {number: 8080}}}}
`;
const decision = compile(manifests).route("https://shop.example.com/cart/items?id=1");
document.querySelector("#decision").textContent = `${decision.via} ${decision.label} (${decision.matched.path})`;

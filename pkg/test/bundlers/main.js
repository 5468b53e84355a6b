// A user's app, bundled by Vite and by webpack with no configuration for the package: the
// package and its element imported by name; the bundler emits the .wasm files itself, and the
// second (the Gateway API here) is fetched only when the button asks for it.
import { compile, load } from "ingress-router";
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

// Gateway API objects need the second module: fetched on the first click.
const routes = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: infra}
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  parentRefs: [{name: public, namespace: infra}]
  hostnames: [shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /cart}}]
    backendRefs: [{name: cart-api, port: 8080}]
`;
document.querySelector("#gateway").addEventListener("click", async () => {
  await load();
  const answer = compile(routes).route("http://shop.example.com/cart/1");
  const service = answer.backend.service;
  document.querySelector("#second").textContent = `${answer.status} ${service.name}:${service.port.number}`;
});

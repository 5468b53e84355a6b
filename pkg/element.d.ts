// Types of `ingress-router/element`: importing it defines <ingress-route-demo>.

/**
 * `<ingress-route-demo src="ingress.yaml" url="https://shop.example.com/cart" profile="ingress-nginx">`.
 * Attributes: `src` (manifests to fetch; otherwise an inline `<script type="application/yaml">` child),
 * `url` (the request to route), `profile` (`spec`, the default, or `ingress-nginx`: the compile option
 * `profile`; changing it recompiles, an unknown value is shown as the package's error), or
 * `table` (a precompiled table, `ingress-router compile -o`, loaded by the package's route-only
 * entry: the page never downloads the compiler).
 */
export declare class IngressRouteDemo extends HTMLElement {
  static readonly observedAttributes: readonly ["src", "table", "url", "profile"];
  /** Routes `url` and shows the decision and its explanation. */
  route(url: string): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "ingress-route-demo": IngressRouteDemo;
  }
}

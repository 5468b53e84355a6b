// Types of `ingress-router/element`: importing it defines <ingress-route-demo>.

/** `<ingress-route-demo src="ingress.yaml" url="https://shop.example.com/cart">`. */
export declare class IngressRouteDemo extends HTMLElement {
  /** Routes `url` and shows the decision and its explanation. */
  route(url: string): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "ingress-route-demo": IngressRouteDemo;
  }
}

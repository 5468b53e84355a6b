// The gallery: example manifests (web/gallery/*.yaml) with a URL and requests to try.
import index from "../gallery/index.json";
import docsPathMatching from "../gallery/docs-path-matching.yaml";
import wildcardHosts from "../gallery/wildcard-hosts.yaml";
import mergedConflict from "../gallery/merged-conflict.yaml";
import defaultBackend from "../gallery/default-backend.yaml";
import resourceBackend from "../gallery/resource-backend.yaml";
import tls from "../gallery/tls.yaml";
import ingressClass from "../gallery/ingress-class.yaml";
import loadBalancerStatus from "../gallery/loadbalancer-status.yaml";
import invalid from "../gallery/invalid.yaml";
import ingressNginxRegex from "../gallery/ingress-nginx-regex.yaml";
import gatewayListeners from "../gallery/gateway-listeners.yaml";
import gatewayPrecedence from "../gallery/gateway-precedence.yaml";
import gatewayRedirectsRewrites from "../gallery/gateway-redirects-rewrites.yaml";
import gatewayWeights from "../gallery/gateway-weights.yaml";
import gatewayReferenceGrant from "../gallery/gateway-reference-grant.yaml";
import gatewayGrpc from "../gallery/gateway-grpc.yaml";
import migrationIngressNginx from "../gallery/migration-ingress-nginx.yaml";

const TEXTS = {
  "docs-path-matching.yaml": docsPathMatching,
  "wildcard-hosts.yaml": wildcardHosts,
  "merged-conflict.yaml": mergedConflict,
  "default-backend.yaml": defaultBackend,
  "resource-backend.yaml": resourceBackend,
  "tls.yaml": tls,
  "ingress-class.yaml": ingressClass,
  "loadbalancer-status.yaml": loadBalancerStatus,
  "invalid.yaml": invalid,
  "ingress-nginx-regex.yaml": ingressNginxRegex,
  "gateway-listeners.yaml": gatewayListeners,
  "gateway-precedence.yaml": gatewayPrecedence,
  "gateway-redirects-rewrites.yaml": gatewayRedirectsRewrites,
  "gateway-weights.yaml": gatewayWeights,
  "gateway-reference-grant.yaml": gatewayReferenceGrant,
  "gateway-grpc.yaml": gatewayGrpc,
  "migration-ingress-nginx.yaml": migrationIngressNginx,
};

/** Every example: `{id, title, note, manifests, url, method, headers, requests, options, publishService}`. */
export const gallery = index.map((entry) => {
  if (!(entry.file in TEXTS)) throw new Error(`gallery/index.json names ${entry.file}, which gallery.js does not import`);
  return {
    id: entry.file.replace(/\.yaml$/, ""),
    title: entry.title,
    note: entry.note ?? "",
    manifests: TEXTS[entry.file],
    url: entry.url,
    method: entry.method ?? "GET",
    headers: entry.headers ?? "",
    requests: entry.requests ?? [],
    options: { ingressClass: "", implementationSpecific: "prefix", profile: "spec", gateway: "", ...entry.options },
    publishService: entry.publishService ?? "",
  };
});

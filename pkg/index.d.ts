// Types of the `ingress-router` npm package. Every output has the shape of the CLI's `--json`
// output (the core serialises both; pkg/test/consumer.mjs checks them deep-equal and writes real outputs to outputs.ts, type-checked against these types with tsc --strict).

/** Manifests: YAML or JSON text (one object, a multi-document stream, a `kind: List`), an object, or an array of objects. */
export type Manifests = string | KubernetesObject | readonly KubernetesObject[];

/** Any Kubernetes object; Ingress, IngressClass and Service are read, other kinds skipped. */
export interface KubernetesObject {
  apiVersion?: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export type ImplementationSpecificMode = "prefix" | "exact" | "string-prefix";
/** `spec`: the Ingress specification; `ingress-nginx`: what ingress-nginx does (regex locations, canaries, rewrites, redirects). */
export type Profile = "spec" | "ingress-nginx";

export interface CompileOptions {
  /** Serve only this IngressClass (default: every Ingress takes part). */
  ingressClass?: string;
  /** How `ImplementationSpecific` paths match (default `prefix`). */
  implementationSpecific?: ImplementationSpecificMode;
  /** The behaviour profile (default `spec`). */
  profile?: Profile;
  /** Route the path as a proxy would after RFC 3986 normalisation (`.`/`..` removed, unreserved escapes decoded). */
  normalizePath?: boolean;
  /** Route the path as a proxy would after merging runs of `/`. */
  mergeSlashes?: boolean;
  /** What the proxy does with `%2F`/`%5C` (Envoy's `path_with_escaped_slashes_action`). */
  escapedSlashes?: "KEEP_UNCHANGED" | "UNESCAPE_AND_FORWARD" | "REJECT_REQUEST" | "UNESCAPE_AND_REDIRECT";
  /** The controller's own default backend, used when no Ingress declares a `defaultBackend`. */
  defaultBackend?: IngressBackend;
  /**
   * Route through the manifests' Gateway API objects (gateway.networking.k8s.io), at this Gateway
   * (`namespace/name`, or a name only one Gateway has). Without it, manifests with a Gateway and no
   * Ingress route through the Gateway API too. A tests file's `options.gateway` means the same.
   */
  gateway?: string;
  /** Gateway API: where `RegularExpression` matches rank: `EnvoyGateway` (the default) or `Istio`. */
  regexOrder?: "EnvoyGateway" | "Istio";
  /** Gateway API: whether a backendRef to a Service (or port) missing from the manifests is invalid (default: when they hold any Service). */
  checkServices?: boolean;
  /**
   * The work regexes may do (Gateway API `RegularExpression` matches, the `ingress-nginx` profile's
   * regexes), in bytes: `size` of one compiled pattern (default 131072; a larger one is refused by
   * name and matches nothing), `total` of all the patterns (default 33554432), and `scan`, what one
   * request's matches may read together (default 262144; past it they answer no match and the
   * decision says `regexBudgetExhausted`).
   */
  regexLimits?: { size?: number; total?: number; scan?: number };
}

/** A request: a URL (`https://shop.example.com/cart?id=1`; its scheme is read: `https://` is TLS), or a `RequestSpec` as a tests file writes it. */
export type RouteRequest = RequestSpec | string;

/** A request as a tests file writes it: `url`, or `host` and `path`; then `scheme`, `method` and `headers`. An optional property that is `undefined` counts as absent. */
export type RequestSpec = (
  | { url: string; host?: undefined; path?: undefined }
  | {
      url?: undefined;
      /** The Host header as received (port, case and a trailing dot allowed). */
      host: string;
      /** The request target (query and fragment allowed; the spec profile ignores them). Default `/`. */
      path?: string;
    }
) & {
  /** Default: the URL's, else `http`; the `ingress-nginx` profile's TLS redirects read it. */
  scheme?: "http" | "https";
  /** Default `GET` (`POST` with `grpc`); Gateway API method matches read it. */
  method?: string;
  /** Read by the `ingress-nginx` profile (canary by header or cookie) and Gateway API header matches (gRPC metadata); names are case-insensitive. */
  headers?: Record<string, string> | null;
  /** The port the request arrives on when it is not the URL's or the Host header's (a `Host: a.example.com:1234` sent to port 80): the Gateway API picks the listener by it. */
  port?: number;
  /** A gRPC call, `SERVICE/METHOD` (`echo.v1.Echo/Echo`): the path `/SERVICE/METHOD`, method `POST` and `content-type: application/grpc` unless given. With `host` (no `path`), or a `url` without a path. */
  grpc?: string;
};

/** @deprecated The name of `RequestSpec` with `host` and `path` before tests files and requests shared one shape. */
export type RequestParts = RequestSpec;

export type PathType = "Exact" | "Prefix" | "ImplementationSpecific";
export type MatchKind = "exact" | "element-prefix" | "string-prefix";
export type Tier = "exact" | "wildcard" | "any";
/** How a request was answered; the last four are the Gateway API's (404: no listener, no Gateway; 500: a filter the proxy cannot apply, no valid backend). */
export type Via = "rule" | "defaultBackend" | "none" | "rejected" | "redirect" | "noListener" | "noGateway" | "filterError" | "noValidBackend";

/** `networking.k8s.io/v1` IngressBackend. */
export type IngressBackend =
  | { service: IngressServiceBackend; resource?: undefined }
  | { resource: TypedLocalObjectReference; service?: undefined };

export interface IngressServiceBackend {
  name: string;
  port?: ServiceBackendPort;
}

export type ServiceBackendPort = { number: number; name?: undefined } | { name: string; number?: undefined };

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

/** The winning path. */
export interface Matched {
  /** `namespace/name`. */
  ingress: string;
  /** The rule host (`""` for host-less rules). */
  host: string;
  path: string;
  pathType: PathType;
  /** `spec.rules[i].http.paths[j]`. */
  field: string;
}

/**
 * Which backend serves a request: the one decision shape of every home (`route --json`, an
 * explanation's `decision`, a tests report's `actual`). From `route()` it is frozen, and each
 * decision that does not depend on the request is one object, shared between calls.
 */
export interface Decision {
  /** The decision in one line: `service:port`, `resource:group/Kind/name` (the Gateway API: `namespace/name:port`), `404`, the refusal's status (`400`), `500`, `redirect <status> <location>` or `split(<backend> <weight>, <backend> <weight>)`. What a tests file's `expect.backend` compares. */
  readonly label: string;
  /** As written in an Ingress (a Gateway API backendRef as a Service backend); `null`: 404, a refusal, a redirect or a split. */
  readonly backend: Readonly<IngressBackend> | null;
  readonly via: Via;
  /** The HTTP status the proxy answers: 200 when a backend serves, the redirect's, 400 for a refusal, 404, 500. */
  readonly status: number;
  /** When `via` is `rule` and an Ingress path won. */
  readonly matched?: Readonly<Matched>;
  /** `namespace/name` of the Ingress whose defaultBackend answered (absent for the configured default). */
  readonly defaultFrom?: string;
  /** Why the proxy refused the request (`rejected`), or why the Gateway answers 404 or 500. */
  readonly reason?: string;
  /** When `via` is `redirect`: the proxy answers with this instead of proxying. */
  readonly redirect?: Readonly<Redirect> | null;
  /** A canary by weight (`ingress-nginx`), or a Gateway API rule's backendRefs: each with its weight; `backend` is then `null`. */
  readonly split?: readonly Readonly<WeightedBackend>[];
  /** The path and query the upstream receives after a rewrite (`ingress-nginx` `rewrite-target`). */
  readonly upstreamPath?: string;
  /** Present (`true`) when some regex answered "no match" because the request's regex budget (`regexLimits.scan`) ran out. */
  readonly regexBudgetExhausted?: true;
  /** For a gRPC call (a `POST` with `content-type: application/grpc...`) the proxy answers itself: the gRPC status its client reads (`12` UNIMPLEMENTED when nothing routes it, `14` UNAVAILABLE when no backend can take it, `2` UNKNOWN for another 500, as gRPC maps HTTP statuses). */
  readonly grpcStatus?: number;
  /** The name of `grpcStatus` as the gRPC specification writes it (`UNIMPLEMENTED` for 12); present with it. */
  readonly grpcStatusName?: GrpcStatusName;
  /** The Gateway API only: `namespace/name` of the Gateway, the listener that took the request, the route (HTTPRoute or GRPCRoute), rule and match that won. */
  readonly gateway?: string | null;
  readonly listener?: string | null;
  readonly route?: string | null;
  /** `"GRPCRoute"` when the winning route is one (absent for an HTTPRoute). */
  readonly routeKind?: "GRPCRoute";
  readonly rule?: number | null;
  readonly ruleName?: string;
  readonly match?: number | null;
  /** The Gateway API only: what the backend receives after the filters (present when forwarded). */
  readonly upstream?: Readonly<GatewayUpstream> | null;
}

/** The gRPC status codes' names, 0 to 16, as the gRPC specification writes them. */
export type GrpcStatusName =
  | "OK" | "CANCELLED" | "UNKNOWN" | "INVALID_ARGUMENT" | "DEADLINE_EXCEEDED" | "NOT_FOUND" | "ALREADY_EXISTS"
  | "PERMISSION_DENIED" | "RESOURCE_EXHAUSTED" | "FAILED_PRECONDITION" | "ABORTED" | "OUT_OF_RANGE"
  | "UNIMPLEMENTED" | "INTERNAL" | "UNAVAILABLE" | "DATA_LOSS" | "UNAUTHENTICATED";

export interface Redirect {
  status: 301 | 302 | 307 | 308;
  /** The `Location` header. */
  location: string;
}

/** One side of a weighted split: `weight` out of the sum of the weights. */
export interface WeightedBackend {
  /** `service:port` or `resource:group/Kind/name` (the Gateway API: `namespace/name:port`). */
  label: string;
  backend: IngressBackend;
  weight: number;
  /** The Gateway API: why this backendRef cannot serve; its share answers 500. */
  invalid?: string;
}

/** @deprecated The one shape is `Decision`. */
export type DecisionView = Decision;

/** A tests file: what `readTests` returns and `ingress-router test` runs. */
export interface TestsFile {
  options?: CompileOptions;
  tests: Test[];
}

export interface Test {
  name?: string;
  request: RequestSpec;
  expect: Expect;
}

/** What a test expects: at least one of `backend`, `status` and `redirect`. */
export interface Expect {
  /** The decision's `label`. */
  backend?: string;
  /** The HTTP status the proxy answers (a refusal's or redirect's, 404 when nothing answers, else 200). */
  status?: number;
  /** The redirect's `Location`. */
  redirect?: string;
  via?: Via;
  matched?: Partial<Pick<Matched, "ingress" | "host" | "path" | "pathType">>;
  upstreamPath?: string;
  /** What the backend receives (`host`: Gateway API tests only). */
  upstream?: { path?: string; host?: string };
}

/** What `runTests` returns (`ingress-router test --json`). */
export interface TestsReport {
  passed: number;
  failed: number;
  results: { name: string; passed: boolean; expect: Expect; actual: Decision }[];
}

export interface HostStep {
  tier: Tier;
  /** What was looked for (`shop.example.com`, `*.example.com`, or `(host-less rules)`). */
  lookedFor: string;
  found: boolean;
}

/** One path of the table, judged against the request. */
export interface Candidate {
  ingress: string;
  host: string;
  path: string;
  pathType: PathType;
  matchKind: MatchKind;
  /** `service:port`, `resource:group/Kind/name`. */
  backend: string;
  field: string;
  /** In the chosen host tier (only those compete). */
  considered: boolean;
  matched: boolean;
  chosen: boolean;
  /** Position among the matching paths, by precedence (0: the winner). */
  rank?: number;
  /** Why, in words. */
  reason: string;
}

/** The whole decision, step by step (`explain --json`). */
export interface Explanation {
  host: string;
  /** Without port, trailing dot and case; absent when too long to be a DNS name. */
  normalizedHost?: string;
  path: string;
  /** The path after the proxy's normalisation (`normalizePath`, `mergeSlashes`, `escapedSlashes`); absent when it did not change it. */
  normalizedPath?: string;
  /** The part that is matched (before `?` and `#`). */
  matchedPath: string;
  hostSteps: HostStep[];
  tier?: Tier;
  tierHost?: string;
  tierReason: string;
  /** Every path: the chosen tier's first, in precedence order. */
  candidates: Candidate[];
  /** Which precedence key chose the winner over the runner-up. */
  decidedBy?: string;
  /** Why the default backend (or 404) answered. */
  defaultReason?: string;
  /** The `ingress-nginx` profile's trace, in nginx's terms (server, location, annotations). */
  steps?: string[];
  decision: Decision;
  /** The Gateway API only: the Gateway, each listener and whether it took the request, every HTTPRoute and why each rule match won or lost. */
  noGateway?: { reason: string; [key: string]: JsonValue };
  listeners?: { name: string; port: number; protocol: string; hostname: string | null; outcome: JsonValue }[];
  routes?: GatewayRouteExplanation[];
}

export type Participation =
  | { kind: "allClasses" | "className" | "legacyAnnotation" | "defaultClass" | "noClass" }
  | { kind: "otherClass" | "unknownClass"; class: string };

export interface IngressInfo {
  namespace: string;
  name: string;
  creationTimestamp?: string;
  participation: Participation;
}

/** A path of the table, named. */
export interface PathRef {
  /** `namespace/name`. */
  ingress: string;
  path: string;
  pathType: PathType;
  /** `spec.rules[i].http.paths[j]`. */
  field: string;
}

/** `shadowed`: the same host, path and pathType is declared again and `by` wins; `unreachable`: `by` always beats it. */
export type Standing = { kind: "active" } | { kind: "shadowed" | "unreachable"; by: PathRef };

export interface PathView {
  ingress: string;
  path: string;
  pathType: PathType;
  matchKind: MatchKind;
  backend: string;
  field: string;
  standing: Standing;
}

export interface DefaultView {
  backend: string;
  ingress?: string;
}

export interface HostView {
  /** `*.foo.com` for wildcards, `""` for host-less rules. */
  host: string;
  tier: Tier;
  /** In precedence order. */
  paths: PathView[];
  defaultBackend?: DefaultView;
}

export interface ExcludedIngress {
  namespace: string;
  name: string;
  reason: string;
  errors?: FieldError[];
}

/** The compiled table (`table --json`). */
export interface Table {
  hosts: HostView[];
  defaultBackend?: DefaultView;
  /** Taking part, oldest first. */
  ingresses: IngressInfo[];
  excluded: ExcludedIngress[];
  /** The Gateway API only: the Gateway, its listeners, the routes attached to each and their rules. */
  gateway?: string | null;
  noGateway?: { reason: string; [key: string]: JsonValue };
  listeners?: GatewayListenerTable[];
}

export type Severity = "error" | "warning" | "note";

export type DiagnosticCode =
  | "invalid-ingress"
  | "invalid-gateway-object"
  | "class-not-served"
  | "duplicate-path"
  | "unreachable-path"
  | "default-backend-conflict"
  | "missing-service"
  | "missing-port-name"
  | "missing-port-number"
  | "service-without-ports"
  | "external-name-backend"
  | "unknown-ingress-class"
  | "multiple-default-classes"
  | "deprecated-class-annotation"
  | "tls-host-without-rule"
  | "host-without-tls"
  | "tls-without-secret"
  | "unknown-annotation"
  | "newer-release-annotation"
  | "misspelled-annotation-prefix"
  | "regex-path-literal"
  | "nginx-regex-host"
  | "nginx-canary"
  | "glob-path"
  | "alb-action-annotation"
  | "removed-annotation"
  | "nginx-ignored-annotation"
  | "nginx-skipped-path"
  | "nginx-inert-canary"
  // Gateway API (`GatewayRouter::lint`).
  | "route-not-attached"
  | "route-parent-missing"
  | "hostname-no-listener"
  | "backend-not-permitted"
  | "backend-not-found"
  | "listener-conflict"
  | "rule-shadowed";

export interface ObjectRef {
  kind: "Ingress" | "Service" | "IngressClass" | "Gateway" | "HTTPRoute" | "ReferenceGrant";
  namespace?: string;
  name: string;
  field?: string;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** The objects involved, the one to change first. */
  objects: ObjectRef[];
  /** What to do about it, in one line. */
  fix: string;
}

export type FieldErrorType =
  | "FieldValueInvalid"
  | "FieldValueRequired"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "FieldValueDuplicate"
  | "FieldValueNotFound"
  | "InternalError";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An apiserver field error (`field.Error`). */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  badValue?: JsonValue;
  detail: string;
  /** As the apiserver prints it: `<field>: <type>: <value>: <detail>`. */
  message: string;
}

export interface Origin {
  source: string;
  /** 1-based, in a multi-document stream. */
  document: number;
  /** 0-based, in a `kind: List` or JSON array. */
  item?: number;
}

export interface LocatedFieldError extends FieldError {
  /** 1-based, when the manifests were text and the field was found in it. */
  line?: number;
  column?: number;
}

/** A field the apiserver's strict decoding rejects, where it is, and what it likely meant. */
export interface UnknownField {
  field: string;
  line?: number;
  column?: number;
  /** The v1 form of a v1beta1 field, or `did you mean "..."?`. */
  hint?: string;
}

export interface CheckedObject {
  /** `Service` only when refused for an unknown field. */
  kind: "Ingress" | "IngressClass" | "Service";
  namespace: string | null;
  name: string;
  operation: "create" | "update";
  origin: Origin;
  valid: boolean;
  /** The apiserver's whole answer (`... is invalid: [...]`), `null` when valid. */
  message: string | null;
  errors: LocatedFieldError[];
  /** Fields strict decoding rejects (the object is then refused before validation). */
  unknownFields?: UnknownField[];
  /** For an Ingress of an API version no longer served: each old field and its v1 form. */
  v1Changes?: string[];
}

/** `validate --json`, and `ok` (the CLI's exit code 0). */
export interface ValidationReport {
  /** Always empty here: `validate` throws an `IngressRouterError` for input it cannot read (the CLI lists them). */
  inputErrors: never[];
  objects: CheckedObject[];
  diagnostics: Diagnostic[];
  summary: { objects: number; valid: number; invalid: number; warnings: number; notes: number; inputErrors: number };
  /** No invalid object (with `strict`: no warning either). */
  ok: boolean;
}

/** `Router.validate`'s options: the router's own compile options apply. */
export interface RouterValidateOptions {
  /** Warnings fail too. */
  strict?: boolean;
  /** The stored versions: an Ingress found there (by namespace and name) is validated as an update. */
  update?: Manifests;
}

export interface ValidateOptions extends CompileOptions {
  /** Warnings fail too. */
  strict?: boolean;
  /** The stored versions: an Ingress found there (by namespace and name) is validated as an update. */
  update?: Manifests;
}

export interface PortStatus {
  port: number;
  protocol?: string;
  error?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string;
  ports?: PortStatus[];
}

export type NoAddress =
  | { kind: "notServed"; reason: string }
  | { kind: "invalidPublishService"; value: string }
  | { kind: "publishServiceMissing" | "loadBalancerPending"; service: string }
  | { kind: "noServiceAddress"; service: string; serviceType: string; field: string }
  | { kind: "unsupportedServiceType"; service: string; serviceType: string };

export type StatusUpdate =
  | { action: "put"; method: "PUT"; path: string; body: string }
  | { action: "unchanged" | "untouched" };

export interface IngressStatusEntry {
  namespace: string;
  name: string;
  served: boolean;
  participation: Participation;
  /** `status.loadBalancer.ingress` now. */
  current: LoadBalancerIngress[];
  /** What the controller computes (empty when there is no address). */
  addresses: LoadBalancerIngress[];
  noAddress?: NoAddress;
  reason?: string;
  /** The request the controller sends (`PUT .../ingresses/{name}/status` with the whole Ingress as JSON). */
  update: StatusUpdate;
}

/** A `kubectl get ingress` row (without AGE). */
export interface IngressRow {
  namespace: string;
  name: string;
  class: string;
  hosts: string;
  address: string;
  ports: string;
}

/** `status --json`, and the `kubectl get ingress` rows once the statuses are written. */
export interface StatusReport {
  class: string | null;
  publishService: string;
  addresses: LoadBalancerIngress[];
  noAddress?: NoAddress;
  ingresses: IngressStatusEntry[];
  rows: IngressRow[];
}

export interface StatusOptions {
  /** The class the controller serves (default: every Ingress). */
  ingressClass?: string;
}

export interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export type LoadBalancerState =
  | { state: "notLoadBalancer" | "pending" }
  | {
      state: "provisioned";
      ingress: LoadBalancerIngress[];
      portErrors: { address: string; port: number; protocol: string; error: string }[];
    };

/** `status --service NS/NAME --json`. */
export interface ServiceView {
  namespace: string;
  name: string;
  type: string;
  clusterIP?: string;
  externalIPs: string[];
  ports: { name?: string; port: number; protocol: string; targetPort: string; nodePort?: number }[];
  loadBalancer: LoadBalancerState;
  conditions: Condition[];
}

/** What the backend receives, after the rule's (and the backend's) filters. */
export interface GatewayUpstream {
  host: string;
  /** Path and query. */
  path: string;
  /** `[name, value]` in order; a header `add`ed to one present is a second pair. */
  headers: [string, string][];
  responseHeaderModifiers?: JsonValue[];
}

/** @deprecated The one shape is `Decision`, whose Gateway API fields are optional. */
export type GatewayDecision = Decision;

/** Why a Gateway API explanation's candidate (one match of one rule) did or did not win. */
export interface GatewayCandidate {
  rule: number;
  ruleName?: string;
  match: number;
  outcome: { outcome: "won" | "mismatch" | "lostOn" | "hostnameDidNotMatch"; [key: string]: JsonValue };
  /** The outcome in words: "matches, and wins", "does not match: wants path /api (PathPrefix)", "matches, but the winner has a longer path". */
  reason: string;
}

/** One HTTPRoute or GRPCRoute in a Gateway API explanation: its attachment, and each rule match with why it won or lost. */
export interface GatewayRouteExplanation {
  kind: "HTTPRoute" | "GRPCRoute";
  route: string;
  notAttached?: { reason: string; [key: string]: JsonValue };
  /** Why it is not attached, in words ("no parentRef names this Gateway"). */
  reason?: string;
  hostnames: string[];
  matchedHostname?: string | null;
  candidates: GatewayCandidate[];
}

/** One listener of a Gateway API table: the routes attached to it and their rules. */
export interface GatewayListenerTable {
  name: string;
  port: number;
  protocol: string;
  hostname: string | null;
  routes: { kind: "HTTPRoute" | "GRPCRoute"; route: string; notAttached?: JsonValue; reason?: string; hostnames: string[]; rules: { [key: string]: JsonValue }[] }[];
}

export declare class Router {
  private constructor();
  /** Which backend serves the request, whatever the manifests hold (Ingresses, or the Gateway API objects). */
  route(request: RouteRequest): Decision;
  /** The whole decision, step by step (for the Gateway API: listeners, routes, and why each candidate lost). */
  explain(request: RouteRequest): Explanation;
  /** Host tiers and their paths in precedence order (for the Gateway API: listeners, routes, rules). */
  table(): Table;
  /**
   * The table as a table file (what `ingress-router compile -o` writes) for `loadTable`: the spec
   * profile's Ingress table only; an ingress-nginx profile or Gateway API router throws (kind `"table"`).
   */
  toTable(): Uint8Array;
  /** What compiling found wrong or worth knowing (none for a router from `loadTable`). */
  readonly diagnostics: Diagnostic[];
  /**
   * `validate()` of the manifests and options this router was compiled from, without reading the
   * manifests again (the same report as `validate(manifests, {...compileOptions, strict, update})`).
   */
  validate(options?: RouterValidateOptions): ValidationReport;
  /** A tests file (YAML text) pinning this router's answers to `requests`, with the router's options: `ingress-router test` and `runTests` replay it. `comment` goes on top as `#` lines. */
  writeTests(requests: readonly (RouteRequest | { name?: string; request: RouteRequest })[], comment?: string): string;
  /** Releases the table's memory now; calling it twice is harmless, any other call afterwards throws. */
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * Manifests compiled again after each edit (an editor's text, on every keystroke). `update(text)`
 * gives the router `compile(text, options)` gives, and throws what it throws; documents (between
 * `---` lines) whose text did not change since an earlier update are not read, validated or
 * linted again. Free it with `free()` (or `using`); the routers it returned are freed on their own.
 */
export declare class Workspace {
  /** A workspace compiling with `options` (those of `compile`). Throws IngressRouterError ("options"). */
  constructor(options?: CompileOptions);
  /** The router for the whole new text (objects are compiled as `compile` compiles them). */
  update(manifests: Manifests): Router;
  /** Releases what the workspace keeps now; calling it twice is harmless, `update` afterwards throws. */
  free(): void;
  [Symbol.dispose](): void;
}

export type ErrorKind =
  /** The manifests are not YAML or JSON. */
  | "syntax"
  /** A document is not a Kubernetes object of the right shape. */
  | "shape"
  /** A value of the wrong type: the apiserver's decoder would refuse the object (its message, in Go's words). */
  | "type"
  /** A Helm or Go template (`{{ .Values.x }}`) that must be rendered first. */
  | "template"
  /** The manifests are larger than 32 MiB. */
  | "too-large"
  /** YAML given to a build that reads JSON only (not this package's). */
  | "yaml-unsupported"
  /** An argument has the wrong type. */
  | "argument"
  | "options"
  | "request"
  | "url"
  /** A Service named in the call is not in the manifests. */
  | "not-found"
  /** The Router (or Workspace) was freed. */
  | "freed"
  /** The .wasm could not be loaded (browser entry; for the second module, `load()`). */
  | "load"
  /** The call needs the second module (the ingress-nginx profile, Gateway API objects or options, `gatewayStatus`, `migrate`), which a browser has not loaded yet: `await load()` first. Node loads it by itself. */
  | "engine"
  /** `globalThis.crypto.getRandomValues` is missing (the table's hash seed comes from it). */
  | "environment"
  /** A bug in ingress-router: the WebAssembly module trapped (a Rust panic) or could not convert a result. After a trap the module is instantiated again. */
  | "internal"
  /** A table file (`loadTable`) of another format version, damaged or not a table; or `toTable()` of a router that is not the spec profile's Ingress table. */
  | "table"
  /** The Router was compiled before the WebAssembly module trapped (an "internal" error): compile again. */
  | "lost";

/** Every error the package throws. */
export declare class IngressRouterError extends Error {
  name: "IngressRouterError";
  kind: ErrorKind;
  /** For input errors, the fields of the CLI's `--json` error objects: the source name (`<input>`, `<tests>`), document, line and column (1-based) and field, when known. `message` is the whole line, place first. */
  source?: string;
  document?: number;
  line?: number;
  column?: number;
  field?: string;
}

/**
 * Loads the package's second module, which holds the ingress-nginx profile and the Gateway API
 * (with `gatewayStatus` and `migrate`). A page that only uses the spec profile never downloads it.
 * In a browser, await this once before the first call that needs it (such a call fails with the
 * `"engine"` kind until then); Node loads it on that call by itself. A failed load (kind `"load"`)
 * can be tried again.
 */
export declare function load(): Promise<void>;
/**
 * A router from a precompiled table (`ingress-router compile -o table.bin`, or `router.toTable()`):
 * it routes, explains and lists its table as the compiled router did; `validate()` throws (no
 * manifests). The `ingress-router/route-only` entry has it in a small module without the compiler.
 * Throws IngressRouterError (`"table"`) for a file of another format version, a damaged one, or not a table.
 */
export declare function loadTable(bytes: Uint8Array | ArrayBuffer): Router;
/** Compiles manifests into a routing table. Throws IngressRouterError. With `options.gateway`, the table routes through the Gateway API objects. */
export declare function compile(manifests: Manifests, options?: CompileOptions): Router;
/** The apiserver's answer for every Ingress and IngressClass, each error at its line and column, then the diagnostics. */
export declare function validate(manifests: Manifests, options?: ValidateOptions): ValidationReport;
/** The status a controller publishing `publishService` (`namespace/name`) writes into each Ingress. */
export declare function ingressStatus(manifests: Manifests, publishService: string, options?: StatusOptions): StatusReport;
/** A Service's spec and status; `service` is `namespace/name`. */
export declare function serviceStatus(manifests: Manifests, service: string): ServiceView;
/** Runs a tests file (YAML or JSON text) against the manifests, compiled with the file's `options` (`ingress-router test --json`). */
export declare function runTests(manifests: Manifests, tests: string): TestsReport;
/** Reads a tests file (YAML or JSON text); an error names its line and field (source `<tests>`). */
export declare function readTests(tests: string): TestsFile;
/** A Gateway API status condition. */
export interface GatewayCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** The status a Gateway API controller writes into one object. */
export interface GatewayObjectStatus {
  /** `Ingress` entries (`status.loadBalancer`) come in input order beside the Gateway API objects. */
  kind: "GatewayClass" | "Gateway" | "HTTPRoute" | "Ingress";
  namespace?: string | null;
  name: string;
  /** The `status` stanza: `conditions` (GatewayClass), `conditions`, `listeners`, `addresses` (Gateway), `parents` (HTTPRoute). */
  status: { [key: string]: JsonValue };
  notes?: string[];
  update?: JsonValue;
}

export interface GatewayStatusReport {
  controllerName: string;
  objects: GatewayObjectStatus[];
}

export interface GatewayStatusOptions {
  /** Serve only the GatewayClasses with this `controllerName` (default: every class, as `ingress-router.dev/gateway-controller`). */
  controllerName?: string;
  /** `lastTransitionTime` of the conditions that change (RFC 3339). */
  transitionTime?: string;
  /** The class the Ingress controller serves (default: every Ingress). */
  ingressClass?: string;
  /** The Service in front of the controller (`namespace/name`): Ingresses get its address (the report then carries `ingressStatus`'s fields too). */
  publishService?: string;
}

/** One side's answer in a migration. */
export interface MigrationAnswer {
  status: number;
  /** `namespace/name:port`. */
  backend?: string;
  /** `[namespace/name:port, percent]`. */
  split?: [string, number][];
  redirect?: string;
  upstreamPath?: string;
  rule?: string;
  reason: string;
}

export interface MigrationDifference {
  probe: { method: string; url: string; headers?: [string, string][]; kind: string; from: string };
  ingress: MigrationAnswer;
  gateway: MigrationAnswer;
}

export type MigrationCause =
  | "ssl-redirect"
  | "from-to-www-redirect"
  | "https-default-certificate"
  | "redirect-query"
  | "trailing-slash-redirect"
  | "wildcard-depth"
  | "regex-case-insensitive"
  | "use-regex-whole-host"
  | "rewrite-target-implies-regex"
  | "regex-prefix"
  | "rewrite-capture-dropped"
  | "upstream-path"
  | "canary"
  | "host-missing"
  | "listener-missing"
  | "different-rule";

/** `ingress-router diff --to gateway-api --json`, with the agreed answers as a tests file. */
export interface MigrationReport {
  from: Profile;
  gateway: string | null;
  probes: number;
  differences: number;
  causes: { cause: MigrationCause; title: string; advice: string; differences: MigrationDifference[] }[];
  /** A tests file (YAML) pinning the answers both sides agree on, for the Gateway API objects. */
  tests: string;
  /** Ingresses the Ingress side leaves out (another class, invalid), with why. */
  leftOut?: string[];
  /** Objects of the manifests that are not compared (TLSRoute, ...), with why. */
  notCompared?: string[];
  /** An object given twice (the last one is compared), ... */
  warnings?: string[];
}

/** What became of one Ingress's annotation or part in `convert()`. */
export interface MigrationNote {
  /** `namespace/name`; empty for the Gateway. */
  ingress: string;
  /** The annotation's full name, or the part (`Ingress`, `host *.example.com`, `backend.resource`). */
  what: string;
  outcome: "translated" | "partly" | "notExpressible" | "leftOut";
  detail: string;
  /** The host whose requests it concerns, when it concerns one host. */
  host?: string;
}

export interface ConvertOptions extends CompileOptions {
  /** The `gatewayClassName` of the Gateway written (default `nginx`). */
  gatewayClass?: string;
  /** ingress-nginx's default certificate, `namespace/name`: an HTTPS listener serves the hosts without `tls` with it. */
  defaultCertificate?: string;
}

/** `ingress-router migrate --json`: the Gateway API objects for the ingress-nginx Ingresses, and their proof. */
export interface Conversion {
  translation: {
    /** The Gateway (unless `gateway` named an existing one), ReferenceGrants, HTTPRoutes and GRPCRoutes. */
    objects: Record<string, unknown>[];
    /** `namespace/name` of the Gateway the routes attach to. */
    gateway: string;
    gatewayWritten: boolean;
    notes: MigrationNote[];
  };
  /** The objects as one YAML stream. */
  yaml: string;
  /** The Ingresses against the objects written, on the probe requests `migrate()` uses (no `tests`). */
  proof: Omit<MigrationReport, "tests" | "differences">;
  /** For each difference of the proof (its causes' differences in order), the positions in `translation.notes` of the notes that explain it. */
  explainedBy: number[][];
  differences: number;
  /** Differences no note of the report explains (0 unless the writer is wrong). */
  unexplained: number;
}

export interface MigrateOptions extends CompileOptions {
  /** How the Ingresses route (default `ingress-nginx`). */
  from?: Profile;
}

/** The one status call (`status --json`): what the controllers write into every Ingress, GatewayClass, Gateway and HTTPRoute of the manifests, in input order. */
export declare function gatewayStatus(manifests: Manifests, options?: GatewayStatusOptions): GatewayStatusReport;
/** The requests whose answer changes from the Ingresses (as ingress-nginx routed them) to the Gateway API objects of the same manifests, grouped by cause. */
export declare function migrate(manifests: Manifests, options?: MigrateOptions): MigrationReport;
/** Writes the Gateway API objects for the ingress-nginx Ingresses of the manifests, and proves them (`ingress-router migrate --json`). */
export declare function convert(manifests: Manifests, options?: ConvertOptions): Conversion;
/** The package version. */
export declare const version: string;

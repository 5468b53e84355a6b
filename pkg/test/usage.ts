// The whole API as a TypeScript user writes it; tsc --strict must accept it.
import {
  compile,
  load,
  validate,
  ingressStatus,
  serviceStatus,
  version,
  IngressRouterError,
  Router,
  Workspace,
  type Decision,
  type GrpcStatusName,
  type Explanation,
  type Table,
  type Diagnostic,
  type ValidationReport,
  type StatusReport,
  type ServiceView,
  type ErrorKind,
  type IngressBackend,
  type TestsFile,
  type TestsReport,
  readTests,
  runTests,
  gatewayStatus,
  migrate,
  type GatewayStatusReport,
  type MigrationReport,
} from "ingress-router";
import type { IngressRouteDemo } from "ingress-router/element";

const yaml = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a}\nspec: {}\n";
const router: Router = compile(yaml, { ingressClass: "nginx", implementationSpecific: "string-prefix", profile: "spec" });
compile({ kind: "Ingress", metadata: { name: "a" } });
const workspace = new Workspace({ ingressClass: "nginx" });
const updated: Router = workspace.update(yaml);
updated.free();
workspace.free();
compile([{ kind: "Ingress" }], {});
const decision: Decision = router.route({ host: "a.example.com", path: "/x", method: "GET", headers: { a: "b" } });
const label: string = decision.label;
// A gRPC call: `grpc` is SERVICE/METHOD; the decision says the gRPC status a client reads.
const call: Decision = router.route({ host: "grpc.example.com", grpc: "echo.v1.Echo/Echo", headers: { "x-canary": "true" } });
const grpcStatus: number | undefined = call.grpcStatus;
const grpcStatusName: GrpcStatusName | undefined = call.grpcStatusName;
const kind: "GRPCRoute" | undefined = call.routeKind;
void [grpcStatus, grpcStatusName, kind];
// The backend as written: a Service or a resource (narrowed by the union).
const written = (b: IngressBackend | null): string => (b === null ? label : b.service ? b.service.name : b.resource.kind);
written(decision.backend);
// Tests files: written by a router, read back, run.
const pinned: string = router.writeTests(["https://a.example.com/x", { name: "n", request: { host: "a", path: "/", headers: null } }], "c");
const file: TestsFile = readTests(pinned);
file.tests.map((t) => t.expect.backend);
const testsReport: TestsReport = runTests(yaml, pinned);
testsReport.results.map((r) => r.actual.label);
if (decision.via === "rule" && decision.matched) decision.matched.pathType satisfies "Exact" | "Prefix" | "ImplementationSpecific";
const explanation: Explanation = router.explain("https://a.example.com/x");
// Present only when a normalisation option changed the path.
const routedPath: string = explanation.normalizedPath ?? explanation.matchedPath;
routedPath.startsWith("/");
explanation.candidates.filter((c) => c.considered).map((c) => c.reason);
const table: Table = router.table();
table.hosts.flatMap((h) => h.paths.map((p) => p.standing.kind));
const diagnostics: Diagnostic[] = router.diagnostics;
diagnostics.map((d) => `${d.severity}[${d.code}]: ${d.message} (${d.fix})`);
router.free();
// The ingress-nginx profile: redirects, splits and rewrites are typed, not `any`.
const nginx = compile(yaml, { profile: "ingress-nginx" });
const answer: Decision = nginx.route("http://a.example.com/x");
if (answer.via === "redirect" && answer.redirect) answer.redirect.status satisfies 301 | 302 | 307 | 308;
answer.redirect?.location.toUpperCase();
answer.split?.map((w) => `${w.label} ${w.weight / 100}`);
answer.upstreamPath?.startsWith("/");
nginx.explain({ host: "a.example.com", path: "/", headers: { "X-Canary": "always" } }).steps?.join("\n");
nginx.free();
{
  using scoped = compile(yaml);
  scoped.route("http://a/");
}
const report: ValidationReport = validate(yaml, { strict: true, update: yaml, ingressClass: "nginx" });
const compiledReport: ValidationReport = compile(yaml, { ingressClass: "nginx" }).validate({ strict: true, update: yaml });
compiledReport.ok satisfies boolean;
report.objects.flatMap((o) => o.errors.map((e) => `${e.line ?? "?"}:${e.column ?? "?"} ${e.message}`));
const status: StatusReport = ingressStatus(yaml, "ns/name", { ingressClass: "nginx" });
status.ingresses.map((i) => (i.update.action === "put" ? `${i.update.method} ${i.update.path}` : i.update.action));
const service: ServiceView = serviceStatus(yaml, "ns/name");
service.loadBalancer.state satisfies "notLoadBalancer" | "pending" | "provisioned";
try {
  compile(null as unknown as string);
} catch (e) {
  if (e instanceof IngressRouterError) {
    const kind: ErrorKind = e.kind;
    console.log(kind, e.line, e.column, e.source, e.message);
  }
}
console.log(version.length);
// The element's types: the tag name maps to the class.
const demo: IngressRouteDemo = document.createElement("ingress-route-demo");
demo.setAttribute("profile", "ingress-nginx");
demo.route("https://a.example.com/x");


// The Gateway API: the same Router and Decision, with the Gateway API's parts.
const gatewayRouter: Router = compile(yaml, { gateway: "infra/public" });
const gatewayDecision: Decision = gatewayRouter.route({ url: "http://shop.example.com/cart", method: "POST", headers: { "x-env": "canary" } });
const location: string | undefined = gatewayDecision.redirect?.location;
const upstreamPath: string | undefined = gatewayDecision.upstream?.path;
const share: number | undefined = gatewayDecision.split?.[0]?.weight;
const statusReport: GatewayStatusReport = gatewayStatus(yaml, { controllerName: "example.com/gateway", transitionTime: "2026-01-02T03:04:05Z" });
const migration: MigrationReport = migrate(yaml, { from: "ingress-nginx", gateway: "infra/public" });
const firstCause: string | undefined = migration.causes[0]?.cause;
const migrationTests: string = migration.tests;
const gatewayWorkspace = new Workspace({ gateway: "infra/public" });
const fromWorkspace: Decision = gatewayWorkspace.update(yaml).route("http://shop.example.com/");
const why: string | null | undefined = gatewayRouter.explain("http://shop.example.com/").decision.route;
const listenerCount: number | undefined = gatewayRouter.table().listeners?.length;
const upstreamOfMigration: string | undefined = migration.causes[0]?.differences[0]?.gateway.upstreamPath;
void [location, upstreamPath, share, statusReport, firstCause, migrationTests, fromWorkspace, why, listenerCount, upstreamOfMigration];

// The second module: a promise of nothing; "engine" is a kind an error can have.
const loaded: Promise<void> = load();
void loaded;
const engineKind: ErrorKind = "engine";
void engineKind;

// The playground: wires the editor, the request fields and the panels to the ingress-router
// package. Every answer shown comes from the package (a Workspace's update → route / explain /
// table / diagnostics, validate, ingressStatus, serviceStatus), used exactly as an outside user would.
import { Workspace, convert, gatewayStatus, ingressStatus, load, migrate, readTests, serviceStatus, validate, version } from "ingress-router";
import "./style.css";
import { createEditor, editorProblems, reveal, setText, showMatch, showProblems } from "./editor.js";
import { errorText, esc, gatewayAnswerLabel, isGatewayDecision } from "./format.js";
import { renderConversion, renderGatewayDecision, renderGatewayFlow, renderGatewayStatus, renderGatewayTable, renderMigration, ruleKey } from "./gateway.js";
import { gallery } from "./gallery.js";
import { Locator } from "./locate.js";
import { Problems } from "./problems.js";
import { renderBatch, renderStatus } from "./panels.js";
import { fromTestsFile, grpcCallOf, grpcSpec, parseHeaders, parseRequestLine, requestSpec } from "./requests.js";
import { decodeState, encodeState } from "./share.js";
import { renderDecision, renderFlow, renderProblems, renderTable, rowKey } from "./views.js";

const started = performance.now(); // the package is instantiated by now (its module's top-level await)
const $ = (id) => document.getElementById(id);
const els = {
  gallery: $("gallery"), ingressClass: $("ingress-class"), classes: $("ingress-classes"),
  implementationSpecific: $("implementation-specific"), profile: $("profile"),
  share: $("share"), shareNote: $("share-note"), editor: $("editor"), problems: $("problems"),
  problemCount: $("problem-count"), url: $("url"), method: $("method"), host: $("host"), path: $("path"),
  headers: $("headers"), decision: $("decision"), flow: $("flow"), table: $("table"),
  requests: $("requests"), batchResults: $("batch-results"), exportButton: $("export"), importInput: $("import"),
  batchNote: $("batch-note"), requestProblems: $("request-problems"), publishService: $("publish-service"), services: $("services"), status: $("status"),
  version: $("version"), exampleNote: $("example-note"),
  gateway: $("gateway"), gatewayField: $("gateway-field"), gatewayStatus: $("gateway-status"),
  migrationPane: $("migration-pane"), migration: $("migration"), migrationTests: $("migration-tests"),
  migrationNote: $("migration-note"), migrationCompare: $("migration-compare"),
  defaultCertificate: $("default-certificate"), convert: $("convert"), convertNote: $("convert-note"), conversion: $("conversion"),
  kindHttp: $("kind-http"), kindGrpc: $("kind-grpc"), httpFields: $("http-fields"), grpcFields: $("grpc-fields"),
  grpcHost: $("grpc-host"), grpcService: $("grpc-service"), grpcMethod: $("grpc-method"), grpcMetadata: $("grpc-metadata"),
};
const GRPC_FIELDS = [["host", "grpcHost"], ["service", "grpcService"], ["method", "grpcMethod"], ["metadata", "grpcMetadata"]];
const noGrpcCall = () => ({ host: "", service: "", method: "", metadata: "" });

/** What a shared link holds. */
const state = {
  example: gallery[0].id,
  manifests: "",
  url: "",
  host: "",
  path: "",
  requestSource: "url", // which fields the request is read from: "url" or "parts" (host and path)
  method: "GET",
  headers: "",
  requestKind: "http", // what the request box sends: "http" (URL, method, headers) or "grpc" (the call below)
  grpc: noGrpcCall(), // a gRPC call: host, service, method, metadata (`key: value` lines)
  requests: "",
  expected: [],
  options: { ingressClass: "", implementationSpecific: "prefix", profile: "spec", gateway: "" },
  publishService: "",
  defaultCertificate: "", // for the Convert action: ingress-nginx's default certificate (namespace/name)
};

// What the package last answered.
let router = null;
let compileError = null;
let locator = null;
let editsSinceLocator = null; // the editor's changes since `locator`'s text (a ChangeSet)
let tableRow = () => null;
let excluded = []; // the Ingresses the table leaves out (another class, invalid), with why
let gatewayTable = null; // a Gateway API router's table (its rules' backends, with why each is invalid)
let winnerRow = null;
// An example was chosen: once its manifests compile, the gRPC fields are preset from its GRPCRoutes.
let grpcPresetPending = false;

/** Timings (performance.now(), ms) of the last updates, read by the browser tests. */
const timings = { route: 0, manifests: 0, interactive: 0, started: 0, complete: 0, manifestParts: {}, migrations: 0 };

const view = createEditor(els.editor, "", (text, typing, changes) => {
  editsSinceLocator = editsSinceLocator ? editsSinceLocator.compose(changes) : changes;
  state.manifests = text;
  // Edited away from the example chosen: the selector says so (choosing the example again reloads it).
  if (state.example && text !== gallery.find((g) => g.id === state.example)?.manifests) {
    state.example = "";
    els.gallery.value = "";
  }
  const t0 = performance.now();
  recompile({ soon: typing || opening });
  timings.manifests = performance.now() - t0;
  saveSoon();
});

// The manifests are compiled through a Workspace, made again when the options change: a keystroke
// reads, validates and lints again only the document it changed.
let workspace = null;
let workspaceOptions = "";

function compileManifests() {
  const options = compileOptions();
  const key = JSON.stringify(options);
  if (!workspace || key !== workspaceOptions) {
    workspace?.free();
    workspace = null;
    workspace = new Workspace(options);
    workspaceOptions = key;
  }
  try {
    return workspace.update(state.manifests);
  } catch (error) {
    // A workspace lost to an internal error is never called again: the next update makes another.
    if (error?.kind === "lost" || error?.kind === "internal") workspace = null;
    if (error?.kind !== "lost") throw error;
    workspace = new Workspace(options);
    return workspace.update(state.manifests);
  }
}

function compileOptions() {
  const o = { implementationSpecific: state.options.implementationSpecific, profile: state.options.profile };
  if (state.options.ingressClass) o.ingressClass = state.options.ingressClass;
  if (state.options.gateway) o.gateway = state.options.gateway;
  return o;
}

// What each view last drew, to skip redrawing what a keystroke did not change (typing in a
// comment changes no table, no explanation and no problem but for its place).
const drawn = {};
function changed(view, value) {
  const json = JSON.stringify(value);
  if (drawn[view] === json) return false;
  drawn[view] = json;
  return true;
}

let currentProblems = [];
function showAllProblems(problems) {
  problems.sort((a, b) => a.from - b.from);
  currentProblems = problems;
  showProblems(view, problems);
  if (changed("problems", problems.map((p) => [p.severity, p.line, p.column, p.title, p.fix]))) {
    renderProblems(els.problems, els.problemCount, problems, (i) => reveal(view, currentProblems[i].from));
  }
}

// ---- updates ----

/**
 * Manifests or options changed: compile, validate, and redraw everything. While the person types
 * (`soon`; also when the page opens), the decision, the picture and the table are redrawn at once
 * and the validation (the router's: no second read of the manifests) right after, unless the next
 * keystroke comes first; the status panel, which reads them twice more, a moment later.
 */
function recompile({ soon = false } = {}) {
  cancelDeferred();
  // While the person types (a keystroke, a paste), only the decision is drawn before the next
  // frame; the table, the picture, the suggestions and the list of requests right after it.
  deferring = deferViews || (soon && DEFER_TYPING);
  try {
    recompileNow(soon);
  } finally {
    deferring = false;
  }
}

function recompileNow(soon) {
  const parts = {};
  let t = performance.now();
  const lap = (name) => {
    const now = performance.now();
    parts[name] = +(now - t).toFixed(2);
    t = now;
  };
  locator = locator ? locator.next(view.state, editsSinceLocator) : new Locator(view.state);
  editsSinceLocator = null;
  lap("locator");
  router?.free();
  router = null;
  compileError = null;
  try {
    router = compileManifests();
  } catch (error) {
    if (error?.kind === "engine") {
      waitForSecondModule();
      return;
    }
    compileError = error;
  }
  lap("compile");
  document.body.classList.toggle("stale", !router);
  lastTable = null;
  if (router) {
    // The table's excluded Ingresses and invalid backends are part of the decision.
    const table = router.table();
    lastTable = table;
    excluded = table.excluded ?? [];
    gatewayTable = table.listeners ? table : null;
    if (grpcPresetPending) presetGrpcCall(table);
    if (!deferring) drawTable(table);
  }
  if (!deferring) fillSuggestions();
  grpcPresetPending = false;
  lap("table");
  reroute({ sameRequest: true });
  lap("request");
  if (!deferring || !DEFER_TYPING) rerouteBatch();
  lap("requests");
  timings.manifestParts = parts;
  clearTimeout(problemsTimer);
  clearTimeout(statusTimer);
  clearTimeout(migrationTimer);
  if (deferViews) {
    settled = opened; // the checks, after the first paint (see the start)
  } else if (deferring) {
    settled = new Promise((resolve) => {
      afterFrame(() => {
        drawDeferred();
        resolve(scheduleChecks());
      });
    });
  } else if (soon) {
    settled = scheduleChecks();
  } else {
    refreshProblems();
    refreshStatus();
    refreshMigration();
    settled = Promise.resolve();
  }
}
let problemsTimer = 0;
let settled = Promise.resolve();

// A measurement switch: `?defer=0` draws every view of a keystroke before the next frame and
// routes the request again for each view, as the page did before (web/test/speed.mjs alternates both).
const DEFER_TYPING = new URLSearchParams(location.search).get("defer") !== "0";
let deferring = false; // the update running draws the decision only (see recompile)
let lastTable = null; // the table of `router`, as the package returned it

/** The compiled table, unless it is what is drawn already. */
function drawTable(table) {
  if (!changed("table", table)) return;
  // A Gateway API router's table lists listeners; an Ingress router's, host tiers.
  tableRow = table.listeners ? renderGatewayTable(els.table, table) : renderTable(els.table, table);
  winnerRow?.classList.remove("winner");
  winnerRow = null;
}

// The work after the next frame: `fn` in a task once the frame is painted.
let deferredFrame = 0;
let deferredTimer = 0;
function afterFrame(fn) {
  cancelDeferred();
  deferredFrame = requestAnimationFrame(() => {
    deferredTimer = setTimeout(fn, 0);
  });
}
function cancelDeferred() {
  cancelAnimationFrame(deferredFrame);
  clearTimeout(deferredTimer);
}

/** What a keystroke left for after the frame: the table, the suggestions, the picture, the requests. */
function drawDeferred() {
  const parts = timings.manifestParts;
  let t = performance.now();
  const lap = (name) => {
    const now = performance.now();
    parts[name] = +(now - t).toFixed(2);
    t = now;
  };
  if (lastTable) drawTable(lastTable);
  fillSuggestions();
  lap("table (after the frame)");
  if (router || compileError) reroute({ sameRequest: true });
  lap("picture (after the frame)");
  rerouteBatch();
  lap("requests (after the frame)");
}
// The checks after a paint: problems at once, status and migration a little later (they are
// slower and less often looked at); settles when the problems are drawn.
function scheduleChecks() {
  const checked = new Promise((resolve) => {
    problemsTimer = setTimeout(() => {
      refreshProblems();
      resolve();
    }, 0);
  });
  statusTimer = setTimeout(refreshStatus, 150);
  migrationTimer = setTimeout(refreshMigration, 300);
  return checked;
}
// Opening: the editor and the decision are painted first; the table, the picture, the suggestions
// and the checks (problems, status, migration) are drawn right after that paint (see the start).
let deferViews = false;
let openedResolve = null;
const opened = new Promise((resolve) => {
  openedResolve = resolve;
});

// The ingress-nginx profile and the Gateway API are in the package's second module, fetched the
// first time the manifests or options need it (a page showing only spec-profile Ingresses never
// downloads it). Until it is ready the page says so; then everything is compiled again.
let secondModule = null;
function waitForSecondModule() {
  cancelDeferred();
  clearTimeout(problemsTimer);
  clearTimeout(statusTimer);
  clearTimeout(migrationTimer);
  document.body.classList.add("stale");
  renderDecision(els.decision, null, "Loading the ingress-nginx and Gateway API module…");
  secondModule ??= load().then(
    () => {
      recompile();
      return settled;
    },
    (error) => {
      secondModule = null;
      renderDecision(els.decision, null, errorText(error));
    },
  );
  settled = secondModule;
}

/** Validation errors, diagnostics and input errors, in the editor and the problems list. */
function refreshProblems() {
  const parts = timings.manifestParts;
  let t = performance.now();
  const lap = (name) => {
    const now = performance.now();
    parts[name] = +(now - t).toFixed(2);
    t = now;
  };
  const place = new Problems(view, locator);
  const problems = [];
  let report = null;
  if (compileError) {
    problems.push(place.input(compileError));
  } else {
    try {
      // The router validates what it was compiled from: the manifests are not read again.
      report = router ? router.validate() : validate(state.manifests);
    } catch (error) {
      problems.push(place.input(error));
    }
  }
  lap("validate");
  if (router) {
    if (report) problems.push(...place.validation(report));
    // The report carries the router's diagnostics (those not about an invalid Ingress, whose
    // errors it lists): taking them from there converts them out of the module once, not twice.
    problems.push(...place.diagnostics(report?.diagnostics ?? router.diagnostics));
  }
  lap("locate");
  showAllProblems(problems);
  lap("problems");
}
let statusTimer = 0;

function currentRequest() {
  if (state.requestSource === "parts") return { host: state.host, path: state.path || "/", method: state.method };
  return { url: state.url, method: state.method === "GET" ? undefined : state.method };
}

/** What the request box sends to the package: the gRPC call, or the HTTP request with the page's headers. */
function routedRequest() {
  return state.requestKind === "grpc" ? grpcSpec(state.grpc) : requestSpec(currentRequest(), parseHeaders(state.headers));
}

/** The host the HTTP fields name (a gRPC call with no host of its own goes there). */
function httpHost() {
  if (state.requestSource === "parts") return state.host;
  try {
    return new URL(state.url).host;
  } catch {
    return "";
  }
}

/**
 * The gRPC fields preset for a chosen example: the first call its GRPCRoutes name (from the
 * package's table), sent at once; without one the box stays an HTTP request.
 */
function presetGrpcCall(table) {
  const call = grpcCallOf(table);
  if (!call) return;
  state.grpc = { ...call, host: call.host ?? httpHost() };
  state.requestKind = "grpc";
  showRequestFields();
  saveSoon();
}

/** The request box's fields for the kind of request it sends. */
function showRequestFields() {
  const grpc = state.requestKind === "grpc";
  els.kindGrpc.checked = grpc;
  els.kindHttp.checked = !grpc;
  els.grpcFields.hidden = !grpc;
  els.httpFields.hidden = grpc;
  for (const [key, id] of GRPC_FIELDS) els[id].value = state.grpc[key];
}

// The parts of the last reroute (ms), for the speed test's breakdown.
let routeT = 0;
function routeLap(name) {
  const now = performance.now();
  timings.routeParts[name] = +(now - routeT).toFixed(2);
  routeT = now;
}
let routed = { router: null }; // the last request routed: the router, the request (JSON), its decision and explanation

/**
 * The request changed (or, `sameRequest`, the router): route, explain, and redraw the request's
 * views. A new request always changes the explanation; a new router often does not.
 */
function reroute({ sameRequest = false } = {}) {
  routeT = performance.now();
  timings.routeParts = {};
  els.decision.querySelector("#upstream-request").hidden = true; // a Gateway API decision shows it again
  if (!router) {
    // No router and no error: the second module is loading (waitForSecondModule).
    const why = compileError ? `The manifests cannot be read: ${errorText(compileError)}` : "Loading the ingress-nginx and Gateway API module…";
    renderDecision(els.decision, null, why);
    showMatch(view, null);
    return;
  }
  if (state.requestKind === "http" && state.requestSource === "parts" && !state.host.trim()) {
    // Every HTTP request names a host (its Host header): none is made up, and no URL without one.
    renderDecision(els.decision, null, "The request has no host: type one in Host (every HTTP request names one), or a whole URL.");
    showMatch(view, null);
    return;
  }
  let decision;
  let explanation;
  let arg;
  try {
    arg = routedRequest();
    // The same router and request (the views drawn after a keystroke's frame): answered already.
    const key = JSON.stringify(arg);
    if (DEFER_TYPING && routed.router === router && routed.key === key) {
      ({ decision, explanation } = routed);
    } else {
      routed = { router: null };
      decision = router.route(arg);
      explanation = router.explain(arg);
      routed = { router, key, decision, explanation };
    }
    routeLap("route and explain");
  } catch (error) {
    renderDecision(els.decision, null, errorText(error));
    showMatch(view, null);
    return;
  }
  if (isGatewayDecision(decision)) {
    showGatewayDecision(decision, explanation, arg, sameRequest);
    return;
  }
  renderDecision(els.decision, decision, null, excluded);
  routeLap("decision");
  if (!deferring && (!sameRequest || changed("flow", [explanation, excluded]))) renderFlow(els.flow, explanation, excluded);
  routeLap("picture");
  if (!sameRequest) delete drawn.flow;
  if (state.requestSource === "url" && state.requestKind === "http") {
    els.host.value = explanation.host;
    els.path.value = explanation.path;
  }
  const m = decision.matched;
  if (!deferring) {
    winnerRow?.classList.remove("winner");
    winnerRow = m ? tableRow(rowKey(m.host, m.ingress, m.field)) : null;
    winnerRow?.classList.add("winner");
  }
  // The matched path's lines, or the defaultBackend that answered.
  const [ingress, field] = m ? [m.ingress, m.field] : decision.defaultFrom ? [decision.defaultFrom, "spec.defaultBackend"] : [null, null];
  if (deferring) {
    // Opening or typing: the matched lines are marked after the frame (reading where they are takes a while).
  } else if (ingress) {
    const [namespace, name] = ingress.split("/");
    showMatch(view, locator.rangeOf("Ingress", namespace, name, field));
  } else {
    showMatch(view, null);
  }
}

/** A Gateway API decision: the answer, the picture, the winning rule in the table and the editor. */
function showGatewayDecision(decision, explanation, request, sameRequest) {
  const notAttached = (explanation.routes ?? []).filter((r) => r.notAttached).map((r) => ({ name: `${r.kind ?? "HTTPRoute"} ${r.route}`, reason: r.reason }));
  renderGatewayDecision(els.decision, decision, notAttached, invalidBackends(decision));
  routeLap("decision");
  if (state.requestSource === "url" && state.requestKind === "http") {
    // The host and path the package read from the URL, as the Ingress view shows them.
    els.host.value = explanation.host ?? "";
    els.path.value = explanation.path ?? "";
  }
  if (!deferring && (!sameRequest || changed("flow", explanation))) renderGatewayFlow(els.flow, explanation, request);
  routeLap("picture");
  if (!sameRequest) delete drawn.flow;
  if (!deferring) {
    winnerRow?.classList.remove("winner");
    winnerRow = decision.route != null && decision.rule != null ? tableRow(ruleKey(decision.listener, decision.route, decision.rule)) : null;
    winnerRow?.classList.add("winner");
  }
  if (deferring) {
    // Opening or typing: marked after the frame, as for an Ingress.
  } else if (decision.route != null && decision.rule != null) {
    const [namespace, name] = decision.route.split("/");
    showMatch(view, locator.rangeOf(decision.routeKind ?? "HTTPRoute", namespace, name, `spec.rules[${decision.rule}]`));
  } else {
    showMatch(view, null);
  }
}

/**
 * The backendRefs of the rule that answered 500 for want of a valid one, with why each is invalid,
 * as the package's table lists them.
 */
function invalidBackends(decision) {
  if (decision.via !== "noValidBackend" || !gatewayTable || decision.route == null) return [];
  const route = gatewayTable.listeners.find((l) => l.name === decision.listener)?.routes.find((r) => r.route === decision.route);
  const rule = route?.rules?.find((r) => r.rule === decision.rule);
  const routeNamespace = decision.route.split("/")[0];
  return (rule?.backends ?? []).filter((b) => b.invalid).map((b) => ({ ...b, routeKind: route.kind ?? "HTTPRoute", routeNamespace }));
}

let batchResults = [];
function rerouteBatch() {
  batchResults = [];
  if (router) {
    for (const [n, line] of state.requests.split("\n").entries()) {
      const request = parseRequestLine(line);
      if (!request) continue;
      request.line = n + 1;
      if (request.error) {
        batchResults.push({ request, error: request.error, malformed: true });
        continue;
      }
      try {
        const spec = requestSpec(request, parseHeaders(state.headers));
        const decision = router.route(spec);
        batchResults.push({ request, spec, decision, backend: isGatewayDecision(decision) ? gatewayAnswerLabel(decision) : decision.label });
      } catch (error) {
        batchResults.push({ request, error: errorText(error) });
      }
    }
  }
  renderBatch(els.batchResults, batchResults, state.expected);
  // The lines that are no request, flagged where they are (each one selects its line).
  const bad = batchResults.filter((r) => r.malformed);
  els.requests.setAttribute("aria-invalid", bad.length ? "true" : "false");
  els.requestProblems.hidden = !bad.length;
  els.requestProblems.innerHTML = bad
    .map((r) => `<li class="error"><button type="button" data-line="${r.request.line}"><span class="sev">error</span> <span class="where">line ${r.request.line}</span> ${esc(r.error)}</button></li>`)
    .join("");
}

/** Selects line `n` (1-based) of the requests list. */
function selectRequestLine(n) {
  const lines = els.requests.value.split("\n");
  const from = lines.slice(0, n - 1).reduce((sum, l) => sum + l.length + 1, 0);
  els.requests.focus();
  els.requests.setSelectionRange(from, from + (lines[n - 1]?.length ?? 0));
}

function refreshStatus() {
  refreshGatewayStatus();
  const publish = state.publishService.trim();
  if (!publish || compileError) {
    renderStatus(els.status, { error: compileError ? "Fix the manifests first." : null });
    return;
  }
  const options = state.options.ingressClass ? { ingressClass: state.options.ingressClass } : {};
  let report;
  try {
    report = ingressStatus(state.manifests, publish, options);
  } catch (error) {
    renderStatus(els.status, { error: errorText(error) });
    return;
  }
  let service = null;
  let serviceError = null;
  try {
    service = serviceStatus(state.manifests, publish);
  } catch (error) {
    serviceError = errorText(error);
  }
  renderStatus(els.status, { report, service, serviceError });
}

/** The status a Gateway API controller would write, when the manifests hold Gateway API objects. */
function refreshGatewayStatus() {
  const kinds = locator.kinds();
  if (!(kinds.Gateway || kinds.HTTPRoute || kinds.GRPCRoute || kinds.GatewayClass)) {
    els.gatewayStatus.hidden = true;
    els.gatewayStatus.innerHTML = "";
    return;
  }
  try {
    renderGatewayStatus(els.gatewayStatus, gatewayStatus(state.manifests), null);
  } catch (error) {
    renderGatewayStatus(els.gatewayStatus, null, errorText(error));
  }
}

// The migration panel: when the manifests hold Ingresses (Convert writes the Gateway API objects
// for them); with HTTPRoutes too, the report comparing both. It runs when the manifests or options
// change (a moment after typing stops), never per URL keystroke.
let migrationTimer = 0;
let migrationTests = null;
let migrationGateway = null; // the Gateway the last report compared with
function refreshMigration() {
  const kinds = locator.kinds();
  els.migrationPane.hidden = !kinds.Ingress;
  clearConversion();
  const shown = Boolean(kinds.Ingress && kinds.HTTPRoute);
  els.migrationCompare.hidden = !shown;
  if (migrationTests) URL.revokeObjectURL(migrationTests);
  migrationTests = null;
  els.migrationTests.hidden = true;
  if (!shown) {
    els.migration.innerHTML = "";
    return;
  }
  const options = { ...compileOptions(), from: state.options.profile };
  delete options.profile;
  let report;
  timings.migrations += 1;
  try {
    report = migrate(state.manifests, options);
  } catch (error) {
    renderMigration(els.migration, null, errorText(error), null);
    return;
  }
  migrationGateway = report.gateway;
  migrationTests = URL.createObjectURL(new Blob([report.tests], { type: "text/yaml" }));
  els.migrationTests.href = migrationTests;
  els.migrationTests.hidden = false;
  renderMigration(els.migration, report, null, pickDifference);
}

// ---- Convert: the Gateway API objects for the Ingresses (`convert`), and their proof ----

let conversionYaml = "";
let conversionShown = null; // the manifests and options the conversion shown was made from

/** The manifests or options changed: a conversion shown is of other manifests. */
function clearConversion() {
  const key = conversionKey();
  if (conversionShown === null || conversionShown === key) return;
  conversionShown = null;
  conversionYaml = "";
  els.conversion.hidden = true;
  els.conversion.innerHTML = "";
  els.convertNote.textContent = "The manifests or options changed: convert again.";
}

function conversionOptions() {
  const options = compileOptions();
  delete options.gateway; // Convert writes a Gateway of its own (the "Route through" choice is for routing)
  const certificate = state.defaultCertificate.trim();
  if (certificate) options.defaultCertificate = certificate;
  return options;
}

const conversionKey = () => JSON.stringify([state.manifests, conversionOptions()]);

async function runConvert() {
  const options = conversionOptions();
  const key = conversionKey();
  let conversion;
  try {
    try {
      conversion = convert(state.manifests, options);
    } catch (error) {
      if (error?.kind !== "engine") throw error;
      els.convertNote.textContent = "Loading the ingress-nginx and Gateway API module…";
      await load();
      conversion = convert(state.manifests, options);
    }
  } catch (error) {
    conversionShown = key;
    conversionYaml = "";
    els.conversion.hidden = false;
    renderConversion(els.conversion, null, errorText(error));
    els.convertNote.textContent = "";
    return;
  }
  conversionShown = key;
  conversionYaml = conversion.yaml;
  els.conversion.hidden = false;
  renderConversion(els.conversion, conversion, null);
  const n = conversion.translation.objects.length;
  els.convertNote.textContent = `Wrote ${n} object${n === 1 ? "" : "s"}; ${conversion.differences ? `${conversion.differences} answer${conversion.differences === 1 ? "" : "s"} differ` : "every answer agrees"}.`;
}

function downloadConversion() {
  if (!conversionYaml) return;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([conversionYaml], { type: "text/yaml" }));
  link.download = "gateway-api.yaml";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function copyConversion(note) {
  try {
    await navigator.clipboard.writeText(conversionYaml);
    note.textContent = "Copied the YAML.";
  } catch {
    note.textContent = "The browser refused the clipboard: select the YAML and copy it, or download it.";
  }
}

/** A migration row chosen: its request in the fields; `side` also picks which router explains it. */
function pickDifference(difference, side) {
  const p = difference.probe;
  state.url = els.url.value = p.url;
  state.requestSource = "url";
  state.requestKind = "http";
  showRequestFields();
  state.method = p.method;
  if (![...els.method.options].some((o) => o.value === p.method)) els.method.append(new Option(p.method));
  els.method.value = p.method;
  state.headers = els.headers.value = (p.headers ?? []).map(([n, v]) => `${n}: ${v}`).join("\n");
  if (state.headers) els.headers.closest("details").open = true;
  els.migrationNote.textContent = `Loaded ${p.method} ${p.url}${side ? `, explained by the ${side === "ingress" ? "Ingresses" : "Gateway API objects"}` : ""}.`;
  if (side) {
    const gateway = side === "ingress" ? "" : (migrationGateway ?? state.options.gateway);
    if (gateway !== state.options.gateway) {
      state.options.gateway = els.gateway.value = gateway;
      recompile();
      saveSoon();
      els.url.focus();
      return;
    }
  }
  requestChanged();
  els.url.focus();
}

function fillSuggestions() {
  const classes = locator.classNames();
  const services = locator.services();
  const options = (list) => list.map((v) => `<option value="${v.replace(/"/g, "&quot;")}"></option>`).join("");
  const classHtml = options(classes);
  if (els.classes.innerHTML !== classHtml) els.classes.innerHTML = classHtml;
  const serviceHtml = options(services);
  if (els.services.innerHTML !== serviceHtml) els.services.innerHTML = serviceHtml;
  // The Gateway selector: "" lets the package choose (the Ingresses when there are any, else the only Gateway).
  const gateways = locator.gateways();
  if (state.options.gateway && !gateways.includes(state.options.gateway)) gateways.push(state.options.gateway);
  const kinds = locator.kinds();
  const auto = kinds.Ingress ? "Ingresses" : gateways.length === 1 ? `Gateway ${gateways[0]}` : "(choose a Gateway)";
  const gatewayHtml = [`<option value="">${auto}</option>`, ...gateways.map((g) => `<option value="${g.replace(/"/g, "&quot;")}">Gateway ${g.replace(/</g, "&lt;")}</option>`)].join("");
  if (els.gateway.innerHTML !== gatewayHtml) {
    els.gateway.innerHTML = gatewayHtml;
    els.gateway.value = state.options.gateway;
  }
  els.gatewayField.hidden = gateways.length === 0;
}

// ---- state ↔ fields ----

function showState() {
  els.gallery.value = gallery.some((g) => g.id === state.example) ? state.example : "";
  const note = gallery.find((g) => g.id === state.example)?.note ?? "";
  els.exampleNote.textContent = note;
  els.exampleNote.hidden = !note;
  els.ingressClass.value = state.options.ingressClass;
  els.implementationSpecific.value = state.options.implementationSpecific;
  els.profile.value = state.options.profile;
  els.gateway.value = state.options.gateway;
  els.url.value = state.url;
  els.host.value = state.host;
  els.path.value = state.path;
  els.method.value = state.method;
  els.headers.value = state.headers;
  showRequestFields();
  // Headers an example sends (a gRPC call's content type) are shown, not folded away.
  if (state.headers) els.headers.closest("details").open = true;
  els.requests.value = state.requests;
  els.publishService.value = state.publishService;
  els.defaultCertificate.value = state.defaultCertificate ?? "";
  if (view.state.doc.toString() !== state.manifests) setText(view, state.manifests); // recompiles
  else recompile({ soon: opening });
}

function applyState(saved) {
  // A link made before gRPC calls: an HTTP request.
  const request = { requestKind: saved.requestKind ?? "http", grpc: { ...noGrpcCall(), ...saved.grpc }, defaultCertificate: saved.defaultCertificate ?? "" };
  Object.assign(state, saved, request, { options: { ...state.options, ...(saved.options ?? {}) } });
  if (!Array.isArray(state.expected)) state.expected = [];
  showState();
}

function loadExample(id) {
  const example = gallery.find((g) => g.id === id) ?? gallery[0];
  grpcPresetPending = true;
  applyState({
    example: example.id,
    manifests: example.manifests,
    url: example.url,
    host: "",
    path: "",
    requestSource: "url",
    method: example.method,
    headers: example.headers,
    requests: example.requests.join("\n"),
    expected: [],
    options: example.options,
    publishService: example.publishService,
    defaultCertificate: "",
  });
}

// ---- sharing ----

let saveTimer = 0;
function saveSoon() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveNow, 300);
}

let saves = 0;
async function saveNow() {
  clearTimeout(saveTimer);
  const save = ++saves;
  const hash = await encodeState(state);
  // Encodings finish in any order: only the latest state goes into the address.
  if (save === saves && location.hash !== hash) history.replaceState(null, "", hash);
  return hash;
}

async function restoreFromHash() {
  try {
    const td = performance.now();
    const saved = await decodeState(location.hash);
    timings.decode = performance.now() - td;
    if (!saved) return false;
    applyState(saved);
    return true;
  } catch (error) {
    els.shareNote.textContent = `This link's state could not be read (${error.message}); showing an example instead.`;
    return false;
  }
}

// ---- events ----

function on(el, event, handler) {
  el.addEventListener(event, handler);
}

on(els.gallery, "change", () => {
  loadExample(els.gallery.value);
  saveSoon();
});
for (const [el, key] of [[els.ingressClass, "ingressClass"], [els.implementationSpecific, "implementationSpecific"], [els.profile, "profile"], [els.gateway, "gateway"]]) {
  on(el, el.tagName === "SELECT" ? "change" : "input", () => {
    state.options[key] = el.value.trim();
    recompile();
    saveSoon();
  });
}

function requestChanged() {
  const t0 = performance.now();
  reroute();
  timings.route = performance.now() - t0;
  saveSoon();
}
on(els.url, "input", () => {
  state.url = els.url.value;
  state.requestSource = "url";
  requestChanged();
});
for (const [el, key] of [[els.host, "host"], [els.path, "path"]]) {
  on(el, "input", () => {
    state.host = els.host.value;
    state.path = els.path.value;
    state.requestSource = "parts";
    // The URL follows the fields, once they name a host (a URL without one would be another request).
    if (state.host.trim()) {
      const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.exec(state.url)?.[0] ?? "http://";
      state.url = els.url.value = `${scheme}${state.host.trim()}${state.path.startsWith("/") ? "" : "/"}${state.path}`;
    }
    requestChanged();
  });
}
for (const radio of [els.kindHttp, els.kindGrpc]) {
  on(radio, "change", () => {
    state.requestKind = radio.value;
    // A first gRPC call goes to the host the HTTP request names.
    if (state.requestKind === "grpc" && !state.grpc.host) state.grpc.host = httpHost();
    showRequestFields();
    requestChanged();
  });
}
for (const [key, id] of GRPC_FIELDS) {
  on(els[id], "input", () => {
    state.grpc[key] = els[id].value;
    requestChanged();
  });
}
on(els.method, "change", () => {
  state.method = els.method.value;
  requestChanged();
});
on(els.headers, "input", () => {
  state.headers = els.headers.value;
  requestChanged();
  rerouteBatch(); // the page's headers go with every request of the list too
});
on(els.requests, "input", () => {
  state.requests = els.requests.value;
  state.expected = [];
  rerouteBatch();
  saveSoon();
});
on(els.convert, "click", () => runConvert());
on(els.defaultCertificate, "input", () => {
  state.defaultCertificate = els.defaultCertificate.value;
  clearConversion();
  saveSoon();
});
on(els.conversion, "click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (button?.dataset.action === "download") downloadConversion();
  if (button?.dataset.action === "copy") copyConversion(els.conversion.querySelector(".conversion-note"));
});
on(els.requestProblems, "click", (event) => {
  const button = event.target.closest("button[data-line]");
  if (button) selectRequestLine(Number(button.dataset.line));
});
on(els.publishService, "input", () => {
  state.publishService = els.publishService.value;
  refreshStatus();
  saveSoon();
});

on(els.exportButton, "click", () => {
  const ok = batchResults.filter((r) => !r.error);
  if (!ok.length) {
    els.batchNote.textContent = "Nothing to export: add requests first.";
    return;
  }
  const comment = "Exported from the ingress-router playground. Run it with:\n  ingress-router test -f MANIFESTS THIS_FILE";
  let text;
  try {
    text = router.writeTests(ok.map((r) => ({ name: `${r.request.text} goes to ${r.backend}`, request: r.spec })), comment);
  } catch (error) {
    els.batchNote.textContent = `Cannot export: ${errorText(error)}`;
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/yaml" }));
  link.download = "ingress-router-tests.yaml";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  els.batchNote.textContent = `Exported ${ok.length} test${ok.length === 1 ? "" : "s"}: run them with ingress-router test -f MANIFESTS ingress-router-tests.yaml`;
});

on(els.importInput, "change", async () => {
  const file = els.importInput.files?.[0];
  if (!file) return;
  try {
    const text = await file.text();
    let read;
    try {
      read = readTests(text);
    } catch (error) {
      if (error?.kind !== "engine") throw error;
      await load(); // a tests file with the ingress-nginx profile: read by the second module
      read = readTests(text);
    }
    const imported = fromTestsFile(read);
    state.requests = els.requests.value = imported.lines.join("\n");
    state.expected = imported.expected;
    state.headers = els.headers.value = imported.headers;
    for (const key of ["ingressClass", "implementationSpecific", "profile", "gateway"]) {
      if (imported.options[key]) state.options[key] = String(imported.options[key]);
    }
    els.ingressClass.value = state.options.ingressClass;
    els.implementationSpecific.value = state.options.implementationSpecific;
    els.profile.value = state.options.profile;
    recompile(); // fills the Gateway selector
    els.gateway.value = state.options.gateway;
    els.batchNote.textContent = `Imported ${imported.lines.length} test${imported.lines.length === 1 ? "" : "s"} from ${file.name}.`;
    saveSoon();
  } catch (error) {
    els.batchNote.textContent = `${file.name}: ${errorText(error)}`;
  }
  els.importInput.value = "";
});

on(els.share, "click", async () => {
  await saveNow();
  try {
    await navigator.clipboard.writeText(location.href);
    els.shareNote.textContent = "Link copied: it holds the manifests, requests and options.";
  } catch {
    els.shareNote.textContent = "Copy the address bar: it holds the manifests, requests and options.";
  }
});

addEventListener("hashchange", () => restoreFromHash());

// ---- start ----

els.gallery.innerHTML = gallery.map((g) => `<option value="${g.id}">${g.title}</option>`).join("") + `<option value="">(your own)</option>`;
els.version.textContent = `version ${version}`;
// Opening: the decision first, the problems and the status right after.
let opening = true;
deferViews = true;
if (!(await restoreFromHash())) loadExample(gallery[0].id);
opening = false;
timings.started = started;
timings.interactive = performance.now();
timings.openParts = { decode: timings.decode, setText: timings.manifests, ...timings.manifestParts };
// The first paint (the editor and the decision), then the rest of the views.
await new Promise((resolve) => requestAnimationFrame(() => {
  setTimeout(() => {
    timings.painted = performance.now(); // the frame that paints them, painted
    resolve();
  }, 0);
}));
deferViews = false;
if (router && lastTable) drawTable(lastTable);
fillSuggestions();
if (router || compileError) {
  reroute({ sameRequest: true }); // the picture, and the winning row in the table
  if (DEFER_TYPING) rerouteBatch();
  settled = scheduleChecks();
}
openedResolve(settled);
timings.drawn = performance.now();
document.body.dataset.ready = "true";
// For the browser tests and the curious: the editor and the last timings.
// For the tests: the problems as placed in the text ({from, to, severity, title}).
const placedProblems = () => currentProblems.map(({ from, to, severity, title }) => ({ from, to, severity, title }));
// And as the editor shows them (moved with the text since they were set).
const shownProblems = () => editorProblems(view);
window.playground = { view, timings, state, settled: () => settled, problems: placedProblems, shownProblems };
await settled;
await new Promise((resolve) => setTimeout(resolve, 200)); // the status panel's turn
timings.complete = performance.now();


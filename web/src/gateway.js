// The page's views of the Gateway API answers: the decision, the picture (listener → route →
// rule → backend, and why every other listener, route and candidate lost), the listeners table,
// the status each object would get, and the migration report. They only arrange and format; every
// fact comes from `route`, `explain`, `table`, `gatewayStatus` and `migrate`.
import { budgetNote, esc, gatewayAnswerLabel, grpcStatusText, leftOutText, viaWords } from "./format.js";

const MAX_CANDIDATES = 60;
const MAX_MIGRATION_ROWS = 40; // per cause; the download holds the agreed tests, the list the differences

/** Key of a rule's row in the listeners table, to mark the winner without drawing again. */
export function ruleKey(listener, route, rule) {
  return `${listener} ${route} ${rule}`; // none holds a space
}

/**
 * The decision region for a Gateway API decision. `notAttached`: the routes the explanation says
 * are not attached where the request went ({name, reason}), named when no rule answered.
 */
export function renderGatewayDecision(el, d, notAttached = [], invalid = []) {
  const backend = el.querySelector("#backend");
  const via = el.querySelector("#via");
  const matched = el.querySelector("#matched");
  const upstream = el.querySelector("#upstream-request");
  el.classList.remove("failed");
  el.querySelector("#upstream").hidden = true;
  backend.textContent = gatewayAnswerLabel(d);
  backend.dataset.kind = d.redirect ? "redirect" : d.split ? "split" : d.status === 200 ? "service" : "none";
  el.querySelector("#via-words").textContent = viaWords(d.via);
  via.textContent = `${d.via} · HTTP ${d.status}${grpcStatusText(d)}`;
  const place = [];
  if (d.gateway) place.push(`Gateway ${d.gateway}`);
  if (d.listener) place.push(`listener ${d.listener}`);
  if (d.route) place.push(`${d.routeKind ?? "HTTPRoute"} ${d.route}`);
  if (d.rule != null) place.push(`rules[${d.rule}]${d.ruleName ? ` (${d.ruleName})` : ""}${d.match != null ? `.matches[${d.match}]` : ""}`);
  const leftOut = d.route == null && notAttached.length ? ` · not attached here: ${leftOutText(notAttached)}` : "";
  const refused = invalid.map((b) => ` · backendRef ${b.namespace}/${b.name}${b.port != null ? `:${b.port}` : ""} refused: ${invalidWords(b)} (${b.invalid.reason})`).join("");
  matched.textContent = (place.length ? place.join(" · ") : "no Gateway answers") + leftOut + refused + budgetNote(d);
  upstream.hidden = !d.upstream;
  if (d.upstream) {
    const headers = d.upstream.headers.map(([n, v]) => `${n}: ${v}`).join(", ");
    upstream.querySelector("code").textContent = `Host ${d.upstream.host} · ${d.upstream.path}${headers ? ` · ${headers}` : ""}`;
  }
}

/** Why a backendRef is invalid, in words (the package's reason is the code shown beside). */
function invalidWords(b) {
  switch (b.invalid.reason) {
    case "RefNotPermitted":
      return `no ReferenceGrant in namespace ${b.namespace} lets ${b.routeKind}s of namespace ${b.routeNamespace} refer to it`;
    case "BackendNotFound":
      return "the manifests hold no such Service";
    case "InvalidKind":
      return "it is not a Service";
    default:
      return "invalid";
  }
}

/** A candidate's row class and mark; the words of why come from the package (`reason`). */
function outcomeMark(o) {
  switch (o.outcome) {
    case "won":
      return ["winner", "✔ chosen"];
    case "hostnameDidNotMatch":
      return ["other", "hostname"];
    case "mismatch":
      return ["nomatch", "no match"];
    case "lostOn":
      return ["lost", "✗ lost"];
    default:
      return ["other", o.outcome];
  }
}

/** The picture for a Gateway API explanation. */
export function renderGatewayFlow(el, x, request) {
  const d = x.decision;
  const chosen = x.listeners.find((l) => l.outcome === "chosen");
  const winnerRoute = x.routes.find((r) => r.route === d.route);
  const backendKind = d.redirect ? "defaultBackend" : d.status === 200 ? "rule" : "none";
  let backendStage = `<code class="backend" data-kind="${d.redirect ? "redirect" : backendKind}">${esc(gatewayAnswerLabel(d))}</code><p>${esc(viaWords(d.via))} <code class="code-label">${esc(d.via)}</code>${esc(grpcStatusText(d))}</p>`;
  if (d.upstream) {
    backendStage += `<p>upstream receives</p><code>Host: ${esc(d.upstream.host)}</code><code>${esc(d.upstream.path)}</code>` +
      d.upstream.headers.map(([n, v]) => `<code>${esc(n)}: ${esc(v)}</code>`).join("");
  }
  const attached = x.routes.filter((r) => !r.notAttached).length;
  const notAttached = x.routes.filter((r) => r.notAttached);
  let html = `<ol class="stages gateway">
    <li class="stage"><h3>Request</h3>${requestStage(request)}${x.gateway ? `<p>at Gateway <code>${esc(x.gateway)}</code></p>` : ""}</li>
    <li class="stage"><h3>Listener</h3>${chosen ? `<code>${esc(chosen.name)}</code><p>${esc(chosen.protocol)} ${esc(chosen.port)} · ${esc(chosen.hostname ?? "any hostname")}</p>` : `<span>none of ${x.listeners.length} takes it</span>`}${x.noGateway ? `<p class="reason">${esc(noGatewayText(x.noGateway))}</p>` : ""}</li>
    <li class="stage"><h3>Route and rule</h3>${d.route ? `<code>${esc(d.routeKind ?? "HTTPRoute")} ${esc(d.route)}</code><p>rules[${esc(d.rule)}]${d.ruleName ? ` (${esc(d.ruleName)})` : ""}${d.match != null ? ` · matches[${esc(d.match)}]` : ""}</p>${winnerRoute?.matchedHostname ? `<p>hostname ${esc(winnerRoute.matchedHostname)}</p>` : ""}` : `<span>no rule matches</span><p>${attached} route${attached === 1 ? "" : "s"} attached</p>${notAttached.length ? `<p class="reason left-out">Not attached here: ${notAttached.map((r) => `<code>${esc(r.route)}</code> ${esc(r.reason)}`).join("; ")}</p>` : ""}`}</li>
    <li class="stage ${backendKind}"><h3>Answer</h3>${backendStage}</li>
  </ol>`;
  html += `<div class="candidates-box" tabindex="0" role="region" aria-label="Listeners, routes and candidates, and why each did or did not win">`;
  if (x.listeners.length) {
    html += `<table class="listeners"><caption>Listeners of ${esc(x.gateway ?? "the Gateway")}</caption><thead><tr><th scope="col">Outcome</th><th scope="col">Listener</th><th scope="col">Port, protocol, hostname</th></tr></thead><tbody>` +
      x.listeners.map((l) => `<tr class="${l.outcome === "chosen" ? "winner" : "nomatch"}"><td class="mark">${esc(l.outcome === "chosen" ? "✔ chosen" : l.outcome)}</td><td><code>${esc(l.name)}</code></td><td>${esc(l.port)} ${esc(l.protocol)} · <code>${esc(l.hostname ?? "(any)")}</code></td></tr>`).join("") +
      `</tbody></table>`;
  }
  const rows = [];
  for (const r of x.routes) {
    if (r.notAttached) {
      rows.push(`<tr class="other"><td class="mark">not attached</td><td><code>${esc(r.route)}</code></td><td class="reason">${esc(r.reason)}</td></tr>`);
      continue;
    }
    if (!r.candidates?.length) {
      rows.push(`<tr class="other"><td class="mark">no rules</td><td><code>${esc(r.route)}</code> <span class="field">${esc(r.hostnames?.join(", ") ?? "")}</span></td><td class="reason">attached; nothing to match</td></tr>`);
      continue;
    }
    for (const c of r.candidates.slice(0, MAX_CANDIDATES)) {
      const [cls, mark] = outcomeMark(c.outcome);
      rows.push(`<tr class="${cls}" data-rule="${esc(`${r.route} ${c.rule} ${c.match}`)}"><td class="mark">${esc(mark)}</td>` +
        `<td><code>${r.kind === "GRPCRoute" ? "GRPCRoute " : ""}${esc(r.route)} rules[${c.rule}]${c.ruleName ? ` (${esc(c.ruleName)})` : ""}.matches[${c.match}]</code><br><span class="field">${esc(r.hostnames?.join(", ") || "(any hostname)")}</span></td>` +
        `<td class="reason">${esc(c.reason)}</td></tr>`);
    }
  }
  if (rows.length) {
    html += `<table class="candidates"><caption>Routes on ${chosen ? `listener ${esc(chosen.name)}` : "the Gateway"}, and why each candidate did or did not win</caption><thead><tr><th scope="col">Outcome</th><th scope="col">Route, rule, match</th><th scope="col">Why</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }
  html += `</div>`;
  el.innerHTML = html;
  const box = el.querySelector(".candidates-box");
  const won = box?.querySelector(".candidates tr.winner");
  if (won) {
    requestAnimationFrame(() => {
      if (won.offsetTop + won.offsetHeight > box.clientHeight) box.scrollTop = Math.max(0, won.offsetTop - 40);
    });
  }
}

/** The picture's request: a gRPC call by service and method (with the POST it is), or the HTTP request. */
function requestStage(request) {
  if (request.grpc) {
    const metadata = Object.entries(request.headers ?? {}).map(([n, v]) => `<code>${esc(n)}: ${esc(v)}</code>`).join("");
    return `<code>gRPC ${esc(request.grpc)}</code><p>POST ${esc(request.host)}/${esc(request.grpc)}</p>${metadata}`;
  }
  return `<code>${esc(request.method ?? "GET")} ${esc(request.url ?? `${request.host}${request.path}`)}</code>`;
}

function noGatewayText(n) {
  if (typeof n === "string") return n;
  if (n.gateways) return `several Gateways (${n.gateways.join(", ")}): choose one in "Route through"`;
  if (n.gateway) return `no Gateway ${n.gateway}`;
  return JSON.stringify(n);
}

function matchText(m) {
  const parts = [];
  const g = m.grpcMethod;
  if (g) parts.push(`method ${g.service ?? "*"}/${g.method ?? "*"}${g.type !== "Exact" ? ` (${g.type})` : ""}`);
  else if (m.path) parts.push(`${m.path.type} ${m.path.value}`);
  if (m.method) parts.push(m.method);
  for (const h of m.headers ?? []) parts.push(`header ${h.name}${h.type && h.type !== "Exact" ? ` ~ ${h.value}` : `: ${h.value}`}`);
  for (const q of m.queryParams ?? []) parts.push(`?${q.name}${q.type && q.type !== "Exact" ? ` ~ ${q.value}` : `=${q.value}`}`);
  return parts.join(" · ");
}

function actionText(rule) {
  const a = rule.action ?? {};
  if (a.action === "redirect") return `redirect${a.statusCode ? ` ${a.statusCode}` : ""}`;
  if (a.action === "filterError") return `500 (${a.reason ?? "filter error"})`;
  const backends = rule.backends.map((b) => `${b.namespace}/${b.name}${b.port != null ? `:${b.port}` : ""}${rule.backends.length > 1 ? ` ${b.weight}` : ""}${b.invalid ? ` (invalid: ${b.invalid.reason})` : ""}`);
  return backends.length ? `→ ${backends.join(", ")}` : "500 (no backendRefs)";
}

/**
 * The listeners → routes → rules table. Returns `row(key)` (key from `ruleKey`): the row of a
 * rule, to mark the winner.
 */
export function renderGatewayTable(el, table) {
  let html = "";
  if (table.noGateway) html += `<p class="error-text">${esc(noGatewayText(table.noGateway))}</p>`;
  for (const l of table.listeners) {
    const rows = [];
    for (const r of l.routes) {
      if (r.notAttached) {
        rows.push(`<tr class="other"><td><code>${esc(r.route)}</code></td><td colspan="4">not attached: ${esc(r.reason)}</td></tr>`);
        continue;
      }
      for (const rule of r.rules) {
        rows.push(`<tr data-key="${esc(ruleKey(l.name, r.route, rule.rule))}"><td data-label="Route"><code>${esc(r.route)}</code><br><span class="field">${esc(r.hostnames.join(", ") || "(any hostname)")}</span></td>` +
          `<td data-label="Rule">rules[${rule.rule}]${rule.name ? ` <span class="field">${esc(rule.name)}</span>` : ""}</td>` +
          `<td data-label="Matches">${rule.matches.map((m) => `<code>${esc(matchText(m))}</code>`).join("<br>")}</td>` +
          `<td data-label="Filters">${esc(rule.filters.join(", ")) || "—"}</td><td data-label="Answer"><code>${esc(actionText(rule))}</code></td></tr>`);
      }
    }
    html += `<div class="host-table"><table class="gateway-table"><caption><span class="tier">listener</span> <code>${esc(l.name)}</code> <span class="hint">${esc(l.port)} ${esc(l.protocol)} · ${esc(l.hostname ?? "any hostname")}</span></caption>` +
      `<thead><tr><th scope="col">Route</th><th scope="col">Rule</th><th scope="col">Matches</th><th scope="col">Filters</th><th scope="col">Answer</th></tr></thead>` +
      `<tbody>${rows.join("") || `<tr><td colspan="5" class="empty">No HTTPRoute or GRPCRoute</td></tr>`}</tbody></table></div>`;
  }
  if (!table.listeners.length && !table.noGateway) html += `<p class="empty">The Gateway has no listeners.</p>`;
  el.innerHTML = html;
  el.onclick = null;
  const rows = new Map();
  for (const tr of el.querySelectorAll("tr[data-key]")) rows.set(tr.dataset.key, tr);
  return (key) => rows.get(key) ?? null;
}

function conditionsList(conditions) {
  if (!conditions?.length) return `<span class="hint">no conditions</span>`;
  return `<ul class="conditions">${conditions
    .map((c) => `<li><strong>${esc(c.type)}</strong>=${esc(c.status)} <code>${esc(c.reason)}</code>${c.message ? ` <span class="message">${esc(c.message)}</span>` : ""}</li>`)
    .join("")}</ul>`;
}

function parentText(ref) {
  if (!ref) return "";
  return `${ref.namespace ? `${ref.namespace}/` : ""}${ref.name}${ref.sectionName ? ` (${ref.sectionName})` : ""}${ref.port ? ` :${ref.port}` : ""}`;
}

function pretty(body) {
  try {
    return JSON.stringify(typeof body === "string" ? JSON.parse(body) : body, null, 2);
  } catch {
    return String(body);
  }
}

/** The status a Gateway API controller would write (`gatewayStatus`). */
export function renderGatewayStatus(el, report, error) {
  el.hidden = false;
  if (error) {
    el.innerHTML = `<h3>Gateway API status</h3><p class="error-text">${esc(error)}</p>`;
    return;
  }
  // The one status report lists Ingresses too; the Ingress panel shows theirs.
  const blocks = report.objects.filter((o) => o.kind !== "Ingress").map((o) => {
    const name = `${o.namespace ? `${o.namespace}/` : ""}${o.name}`;
    const s = o.status ?? {};
    let body = "";
    if (o.kind === "HTTPRoute" || o.kind === "GRPCRoute") {
      const parents = s.parents ?? [];
      body = parents.length
        ? `<table class="gw-status"><thead><tr><th scope="col">Parent</th><th scope="col">Conditions</th></tr></thead><tbody>${parents
            .map((p) => `<tr><td><code>${esc(parentText(p.parentRef))}</code></td><td>${conditionsList(p.conditions)}</td></tr>`)
            .join("")}</tbody></table>`
        : `<p class="hint">No parent served by this controller.</p>`;
    } else if (o.kind === "Gateway") {
      const listeners = s.listeners ?? [];
      body = conditionsList(s.conditions) +
        (listeners.length
          ? `<table class="gw-status"><thead><tr><th scope="col">Listener</th><th scope="col">Attached routes</th><th scope="col">Conditions</th></tr></thead><tbody>${listeners
              .map((l) => `<tr><td><code>${esc(l.name)}</code></td><td class="attached">${esc(l.attachedRoutes)}</td><td>${conditionsList(l.conditions)}</td></tr>`)
              .join("")}</tbody></table>`
          : "");
    } else {
      body = conditionsList(s.conditions);
    }
    const notes = (o.notes ?? []).map((n) => `<li>${esc(n)}</li>`).join("");
    const u = o.update;
    const put = u?.action === "put"
      ? `<details class="put"><summary><code>${esc(u.method)} ${esc(u.path)}</code></summary><pre tabindex="0"><code>${esc(`${u.method} ${u.path}\nContent-Type: application/json\n\n${pretty(u.body)}`)}</code></pre></details>`
      : "";
    return `<div class="gw-object" data-kind="${esc(o.kind)}" data-name="${esc(name)}"><h4>${esc(o.kind)} <code>${esc(name)}</code></h4>${body}${notes ? `<ul class="hint">${notes}</ul>` : ""}${put}</div>`;
  });
  el.innerHTML = `<h3>Gateway API status <span class="hint">what controller <code>${esc(report.controllerName)}</code> writes into each object</span></h3>` +
    (blocks.join("") || `<p class="empty">No GatewayClass, Gateway, HTTPRoute or GRPCRoute.</p>`);
}

/**
 * One side's answer as its parts: status, backend (or split), redirect location, upstream path.
 * Each part has a key, so the two sides of a row compare part by part.
 */
function answerParts(a) {
  if (!a) return [];
  const parts = [{ key: "status", text: String(a.status) }];
  if (a.redirect) parts.push({ key: "location", text: `→ ${a.redirect}` });
  else if (a.split) parts.push({ key: "backend", text: a.split.map(([b, p]) => `${b} ${p}%`).join(" · ") });
  else if (a.backend) parts.push({ key: "backend", text: a.backend });
  if (a.upstreamPath) parts.push({ key: "upstream", text: `upstream ${a.upstreamPath}` });
  return parts;
}

const PART_WORDS = { status: "status", location: "redirect location", backend: "backend", upstream: "upstream path" };

/** `a`'s answer, each part that differs from `other`'s (or that `other` lacks) highlighted. */
function answerHtml(a, other) {
  const theirs = new Map(answerParts(other).map((p) => [p.key, p.text]));
  return `<code class="answer">${answerParts(a).map((p) => (p.key === "upstream" ? "· " : "") + (theirs.get(p.key) === p.text
    ? `<span data-part="${p.key}">${esc(p.text)}</span>`
    : `<mark class="differs" data-part="${p.key}" title="differs: ${PART_WORDS[p.key]}">${esc(p.text)}</mark>`)).join(" ")}</code>`;
}

/** Why each request was tried (`probe.kind`), in words; the code stays beside. */
const PROBE_KINDS = {
  at: "the path itself",
  under: "a path under it",
  beside: "the path with letters added",
  slash: "its trailing-slash twin",
  case: "its other letter case",
  regex: "a corner of its regex",
  root: "the host's root",
  default: "a host no rule names",
  query: "the path with a query",
  https: "the path over HTTPS",
  grpc: "a gRPC call under the path",
  www: "the host's other name (from-to-www-redirect)",
  canary: "with the canary's header",
  match: "without the route's conditions",
};

function probeKind(p) {
  return `<span class="probe-kind">${esc(PROBE_KINDS[p.kind] ?? p.kind)}</span> <code class="hint">${esc(p.kind)}</code> · from <span class="probe-from">${esc(p.from)}</span>`;
}

/** The one-line legend above the migration tables. */
const MIGRATION_LEGEND = `<p class="legend hint">Each row: a request tried (why: the path itself, a path under it, … with the code beside; from which rule), then what each side answers: ` +
  `status, backend <code>namespace/name:port</code> (or a split, or <code>→</code> a redirect location), <code>upstream</code> the path the backend receives. ` +
  `<mark class="differs">Highlighted</mark>: the part that differs.</p>`;

function sideCell(a, other, side, index) {
  return `<td data-label="${side === "ingress" ? "Ingress" : "Gateway API"}">${answerHtml(a, other)}${a.rule ? `<br><span class="field">${esc(a.rule)}</span>` : ""}` +
    `${a.reason ? `<br><span class="reason">${esc(a.reason)}</span>` : ""}<br><button type="button" class="explain-side" data-index="${index}" data-side="${side}">Explain the ${side === "ingress" ? "Ingress" : "Gateway"} side</button></td>`;
}

/**
 * The migration report (`migrate`). `onPick(difference, side)` loads a difference's request
 * (`side`: null, "ingress" or "gateway": which router explains it).
 */
export function renderMigration(el, report, error, onPick) {
  if (error) {
    el.innerHTML = `<p class="error-text">${esc(error)}</p>`;
    el.onclick = null;
    return;
  }
  const picks = [];
  const summary = `<p class="summary">${esc(report.probes)} requests tried from the Ingresses (as <code>${esc(report.from)}</code> routes them) against Gateway <code>${esc(report.gateway ?? "(none)")}</code>: ` +
    `${report.differences ? `<strong>${esc(report.differences)} answer${report.differences === 1 ? "" : "s"} differ</strong>` : "every answer agrees"}.</p>`;
  const causes = report.causes.map((c) => {
    const shown = c.differences.slice(0, MAX_MIGRATION_ROWS);
    const rows = shown.map((d) => {
      const i = picks.push(d) - 1;
      const p = d.probe;
      const headers = (p.headers ?? []).map(([n, v]) => `${n}: ${v}`).join(", ");
      return `<tr><td><button type="button" class="load-request" data-index="${i}"><code>${esc(p.method)} ${esc(p.url)}</code></button>` +
        `${headers ? `<br><span class="field">${esc(headers)}</span>` : ""}<br><span class="field">${probeKind(p)}</span></td>` +
        sideCell(d.ingress, d.gateway, "ingress", i) + sideCell(d.gateway, d.ingress, "gateway", i) + `</tr>`;
    });
    const more = c.differences.length - shown.length;
    return `<div class="cause" data-cause="${esc(c.cause)}"><h3>${esc(c.title)} <span class="count">${c.differences.length}</span> <code class="hint">${esc(c.cause)}</code></h3><p class="advice">${esc(c.advice)}</p>` +
      `<table class="migration-table"><caption class="sr-only">${esc(c.title)}: the requests and both answers</caption><thead><tr><th scope="col">Request (choose to load it)</th><th scope="col">Ingress answer</th><th scope="col">Gateway API answer</th></tr></thead><tbody>${rows.join("")}</tbody></table>` +
      (more > 0 ? `<p class="hint">and ${more} more</p>` : "") + `</div>`;
  });
  el.innerHTML = summary + (causes.length ? MIGRATION_LEGEND : "") + causes.join("");
  el.onclick = (event) => {
    const button = event.target.closest("button[data-index]");
    if (!button) return;
    onPick(picks[Number(button.dataset.index)], button.dataset.side ?? null);
  };
}

const OUTCOME_WORDS = {
  translated: "translated",
  partly: "partly translated",
  notExpressible: "cannot be expressed",
  leftOut: "left out",
};

/** A note's outcome in words first, the package's code as a secondary label. */
function outcomeCell(outcome) {
  return `<span class="outcome" data-outcome="${esc(outcome)}">${esc(OUTCOME_WORDS[outcome] ?? outcome)}</span> <code class="hint">${esc(outcome)}</code>`;
}

function noteItem(n) {
  return `<li data-outcome="${esc(n.outcome)}"><strong>${esc(n.ingress || "the Gateway")}</strong> · ${esc(n.what)}: ${esc(OUTCOME_WORDS[n.outcome] ?? n.outcome)}. <span class="reason">${esc(n.detail)}</span></li>`;
}

/**
 * The Convert action's result (`convert`): the YAML written (Copy, Download), beside its proof
 * (the differences by cause, each with the report's notes that explain it), then every note by
 * Ingress.
 */
export function renderConversion(el, conversion, error) {
  if (error) {
    el.innerHTML = `<p class="error-text">Cannot convert: ${esc(error)}</p>`;
    return;
  }
  const t = conversion.translation;
  const proof = conversion.proof;
  const kinds = {};
  for (const o of t.objects) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
  const written = Object.entries(kinds).map(([k, n]) => `${n} ${k}${n === 1 ? "" : "s"}`).join(", ");
  const yaml = `<div class="conversion-yaml"><h3>Gateway API objects <span class="hint">${esc(written || "none")}; routes attach to Gateway <code>${esc(t.gateway)}</code>${t.gatewayWritten ? " (written here)" : ""}</span></h3>` +
    `<div class="buttons"><button type="button" data-action="copy">Copy YAML</button><button type="button" data-action="download">Download gateway-api.yaml</button><span class="note conversion-note" role="status" aria-live="polite"></span></div>` +
    `<pre class="yaml" tabindex="0" aria-label="The Gateway API objects, YAML"><code>${esc(conversion.yaml)}</code></pre></div>`;

  const differ = conversion.differences;
  let proofHtml = `<p class="summary">${esc(proof.probes)} requests tried from the Ingresses (as <code>${esc(proof.from)}</code> routes them) against the objects written: ` +
    `${differ ? `<strong>${esc(differ)} answer${differ === 1 ? "" : "s"} differ</strong>` : "<strong>every answer agrees</strong>"}` +
    `${differ ? `; ${conversion.unexplained ? `<strong class="error-text">${esc(conversion.unexplained)} not explained by a note</strong>` : "each explained by a note of the conversion"}` : ""}.</p>`;
  // The core ties each difference (in cause order) to the notes that explain it.
  let k = 0;
  for (const c of proof.causes) {
    const shown = c.differences.slice(0, MAX_MIGRATION_ROWS);
    const explaining = new Set();
    const first = k;
    k += c.differences.length;
    const rows = shown.map((d, i) => {
      for (const n of conversion.explainedBy[first + i] ?? []) explaining.add(t.notes[n]);
      const p = d.probe;
      const headers = (p.headers ?? []).map(([n, v]) => `${n}: ${v}`).join(", ");
      return `<tr><td data-label="Request"><code>${esc(p.method)} ${esc(p.url)}</code>${headers ? `<br><span class="field">${esc(headers)}</span>` : ""}<br><span class="field">${probeKind(p)}</span></td>` +
        `<td data-label="Ingress">${answerHtml(d.ingress, d.gateway)}${d.ingress.reason ? `<br><span class="reason">${esc(d.ingress.reason)}</span>` : ""}</td>` +
        `<td data-label="Gateway API">${answerHtml(d.gateway, d.ingress)}${d.gateway.reason ? `<br><span class="reason">${esc(d.gateway.reason)}</span>` : ""}</td></tr>`;
    });
    const more = c.differences.length - shown.length;
    const why = explaining.size
      ? `<div class="explained-by"><span class="caption">Explained by</span><ul class="notes-list">${[...explaining].map(noteItem).join("")}</ul></div>`
      : `<p class="error-text">No note of the conversion explains these.</p>`;
    proofHtml += `<div class="cause" data-cause="${esc(c.cause)}"><h4>${esc(c.title)} <span class="count">${c.differences.length}</span> <code class="hint">${esc(c.cause)}</code></h4><p class="advice">${esc(c.advice)}</p>${why}` +
      `<table class="migration-table"><caption class="sr-only">${esc(c.title)}: the requests and both answers</caption><thead><tr><th scope="col">Request</th><th scope="col">Ingress answer</th><th scope="col">Gateway API answer</th></tr></thead><tbody>${rows.join("")}</tbody></table>` +
      (more > 0 ? `<p class="hint">and ${more} more</p>` : "") + `</div>`;
  }
  const lists = [["Left out of the proof", proof.leftOut], ["Not compared", proof.notCompared], ["Warnings", proof.warnings]]
    .filter(([, l]) => l?.length)
    .map(([title, l]) => `<p class="hint">${esc(title)}:</p><ul class="hint">${l.map((x) => `<li>${esc(x)}</li>`).join("")}</ul>`)
    .join("");
  proofHtml = `<div class="conversion-proof"><h3>Proof <span class="hint">the Ingresses against what was written</span></h3>${differ ? proofHtml.replace(/<\/p>/, `</p>${MIGRATION_LEGEND}`) : proofHtml}${lists}</div>`;

  const byIngress = new Map();
  for (const n of t.notes) {
    const key = n.ingress || "";
    if (!byIngress.has(key)) byIngress.set(key, []);
    byIngress.get(key).push(n);
  }
  const groups = [...byIngress].map(([ingress, notes]) =>
    `<tbody data-ingress="${esc(ingress)}"><tr class="group"><th scope="rowgroup" colspan="3">${ingress ? `Ingress <code>${esc(ingress)}</code>` : "The Gateway"}</th></tr>` +
    notes.map((n) => `<tr class="note-row" data-outcome="${esc(n.outcome)}"><td data-label="What"><code>${esc(n.what)}</code>${n.host ? `<br><span class="field">host ${esc(n.host)}</span>` : ""}</td><td data-label="Outcome">${outcomeCell(n.outcome)}</td><td data-label="Detail">${esc(n.detail)}</td></tr>`).join("") +
    `</tbody>`).join("");
  const notesHtml = `<div class="conversion-notes"><h3>What became of each Ingress and annotation</h3>` +
    (groups ? `<table class="notes-table"><caption class="sr-only">Notes by Ingress: what, outcome, detail</caption><thead><tr><th scope="col">What</th><th scope="col">Outcome</th><th scope="col">Detail</th></tr></thead>${groups}</table>` : `<p class="empty">No notes.</p>`) +
    `</div>`;
  el.innerHTML = `<div class="conversion-grid">${yaml}${proofHtml}</div>${notesHtml}`;
}

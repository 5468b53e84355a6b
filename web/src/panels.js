// The requests table and the status panel: arranged from `route`, `ingressStatus` and
// `serviceStatus` results.
import { esc, hostLabel, viaWords } from "./format.js";

/** Results of many requests; `expected[i]`, from an imported tests file, is shown beside them. */
export function renderBatch(el, results, expected) {
  if (!results.length) {
    el.innerHTML = `<p class="empty">Type requests on the left (one per line) to see them all routed at once.</p>`;
    return;
  }
  const withExpected = expected?.some((e) => e != null);
  const rows = results
    .map((r, i) => {
      const n = r.request.line ?? i + 1;
      if (r.error) return `<tr class="error"><td>${n}</td><td><code>${esc(r.request.text)}</code></td><td colspan="${withExpected ? 4 : 3}">${r.malformed ? "not a request: " : ""}${esc(r.error)}</td></tr>`;
      const m = r.decision.matched;
      const exp = withExpected ? expected[i] : undefined;
      const verdict = exp == null ? "" : exp === r.backend ? "as expected" : `expected ${exp}`;
      return `<tr class="${exp != null && exp !== r.backend ? "mismatch" : ""}"><td>${n}</td><td><code>${esc(r.request.text)}</code></td>` +
        `<td><code class="backend">${esc(r.backend)}</code></td><td>${esc(viaWords(r.decision.via))} <code class="code-label">${esc(r.decision.via)}</code></td>` +
        `<td>${m ? `${esc(m.ingress)} · ${esc(hostLabel(m.host))} · <code>${esc(m.pathType)} ${esc(m.path)}</code>` : r.decision.defaultFrom ? `defaultBackend of ${esc(r.decision.defaultFrom)}` : gatewayRule(r.decision)}</td>` +
        (withExpected ? `<td>${esc(verdict)}</td>` : "") + `</tr>`;
    })
    .join("");
  el.innerHTML = `<table class="results"><caption>${results.length} request${results.length === 1 ? "" : "s"}</caption><thead><tr><th scope="col">Line</th><th scope="col">Request</th>` +
    `<th scope="col">Backend</th><th scope="col">Via</th><th scope="col">Matched rule</th>${withExpected ? `<th scope="col">Tests file</th>` : ""}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** A Gateway API decision's rule, for the requests table (`—` for an Ingress decision without one). */
function gatewayRule(d) {
  if (d.route == null) return "—";
  return `${esc(d.routeKind ?? "HTTPRoute")} ${esc(d.route)} · <code>rules[${esc(d.rule)}]${d.ruleName ? ` ${esc(d.ruleName)}` : ""}</code> · listener ${esc(d.listener)}`;
}

function addressText(addresses) {
  return (addresses ?? []).map((a) => a.ip ?? a.hostname).filter(Boolean).join(", ");
}

function prettyBody(body) {
  try {
    return JSON.stringify(typeof body === "string" ? JSON.parse(body) : body, null, 2);
  } catch {
    return String(body);
  }
}

function rowsOf(report) {
  if (Array.isArray(report.rows)) return report.rows;
  const rows = report.ingresses.map((i) => i.row ?? i.kubectl).filter(Boolean);
  return rows.length === report.ingresses.length ? rows : null;
}

function kubectlTable(rows) {
  const namespaced = rows.some((r) => r.namespace !== rows[0]?.namespace);
  const head = `${namespaced ? "<th scope=\"col\">NAMESPACE</th>" : ""}<th scope="col">NAME</th><th scope="col">CLASS</th><th scope="col">HOSTS</th><th scope="col">ADDRESS</th><th scope="col">PORTS</th>`;
  const body = rows
    .map((r) => `<tr>${namespaced ? `<td>${esc(r.namespace)}</td>` : ""}<td>${esc(r.name)}</td><td>${esc(r.class)}</td><td>${esc(r.hosts)}</td><td>${esc(r.address)}</td><td>${esc(r.ports)}</td></tr>`)
    .join("");
  return `<table class="kubectl"><caption>kubectl get ingress, once the controller has written the status</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function serviceView(s) {
  const lb = s.loadBalancer;
  const ports = (s.ports ?? [])
    .map((p) => `<tr><td>${esc(p.name ?? "")}</td><td>${esc(p.port)}</td><td>${esc(p.protocol ?? "")}</td><td>${esc(p.targetPort ?? "")}</td><td>${esc(p.nodePort ?? "")}</td></tr>`)
    .join("");
  const conditions = (s.conditions ?? []).map((c) => `<li>${esc(c.type)}=${esc(c.status)}${c.reason ? ` (${esc(c.reason)})` : ""}${c.message ? `: ${esc(c.message)}` : ""}</li>`).join("");
  const portErrors = (lb?.portErrors ?? []).map((e) => `<li>${esc(e.port)}/${esc(e.protocol ?? "")}: ${esc(e.error ?? e.message ?? JSON.stringify(e))}</li>`).join("");
  return `<div class="service"><h3>Service ${esc(s.namespace)}/${esc(s.name)}</h3>
    <dl><dt>Type</dt><dd>${esc(s.type)}</dd>
    ${s.clusterIP ? `<dt>Cluster IP</dt><dd>${esc(s.clusterIP)}</dd>` : ""}
    ${s.externalIPs?.length ? `<dt>External IPs</dt><dd>${esc(s.externalIPs.join(", "))}</dd>` : ""}
    ${lb ? `<dt>Load balancer</dt><dd><strong class="lb ${esc(lb.state)}">${esc(lb.state)}</strong>${lb.ingress?.length ? `: ${esc(addressText(lb.ingress))}` : ""}</dd>` : ""}
    </dl>
    ${ports ? `<table><caption>Ports</caption><thead><tr><th scope="col">Name</th><th scope="col">Port</th><th scope="col">Protocol</th><th scope="col">Target port</th><th scope="col">Node port</th></tr></thead><tbody>${ports}</tbody></table>` : ""}
    ${portErrors ? `<h4>Port errors</h4><ul>${portErrors}</ul>` : ""}
    ${conditions ? `<h4>Conditions</h4><ul>${conditions}</ul>` : `<p class="hint">No conditions.</p>`}
  </div>`;
}

function requestView(i) {
  const key = `${i.namespace}/${i.name}`;
  const u = i.update ?? {};
  if (u.action === "put") {
    const now = addressText(i.current);
    const change = `${now || "no address"} → ${addressText(i.addresses) || "no address"}`;
    return `<details class="put"><summary><code>${esc(u.method)} ${esc(u.path)}</code> <span class="hint">${esc(key)}: ${esc(change)}</span></summary>` +
      `<pre tabindex="0"><code>${esc(`${u.method} ${u.path}\nContent-Type: application/json\n\n${prettyBody(u.body)}`)}</code></pre></details>`;
  }
  const why = u.action === "unchanged" ? "no request: the status already holds these addresses" : `no request: ${i.reason ?? "the controller leaves it untouched"}`;
  return `<p class="no-put"><strong>${esc(key)}</strong>: ${esc(why)}</p>`;
}

/** Why no address is written, in words first, the package's code beside. */
function noAddressText(n) {
  const words = {
    notServed: n.reason,
    invalidPublishService: `the publish Service "${n.value}" is not namespace/name`,
    publishServiceMissing: `the manifests hold no Service ${n.service}`,
    loadBalancerPending: `the load balancer of ${n.service} has no address yet`,
    noServiceAddress: `Service ${n.service} (type ${n.serviceType}) has no address in ${n.field}`,
    unsupportedServiceType: `Service ${n.service} is of type ${n.serviceType}, which gives no address`,
  }[n.kind] ?? n.reason ?? n.kind;
  return { words, code: n.kind };
}

/** The status panel. `report` from ingressStatus, `service` from serviceStatus (or its error). */
export function renderStatus(el, { report, service, error, serviceError }) {
  if (error) {
    el.innerHTML = `<p class="error-text">${esc(error)}</p>`;
    return;
  }
  if (!report) {
    el.innerHTML = `<p class="empty">Name the Service in front of the ingress controller to see the status it would write.</p>`;
    return;
  }
  const rows = rowsOf(report);
  const addresses = addressText(report.addresses);
  const noAddress = report.noAddress ? noAddressText(report.noAddress) : null;
  el.innerHTML = `<div class="status-grid">
      <div>${rows ? kubectlTable(rows) : ""}
        <p>${noAddress ? `No address: ${esc(noAddress.words)} <code class="code-label">${esc(noAddress.code)}</code>` : `Address written: <code>${esc(addresses || "none")}</code>`}${report.class ? ` · class <code>${esc(report.class)}</code>` : " · every Ingress"}</p>
        <h3>Requests the controller sends</h3>${report.ingresses.map(requestView).join("")}
      </div>
      <div>${service ? serviceView(service) : `<p class="error-text">${esc(serviceError ?? "")}</p>`}</div>
    </div>`;
}

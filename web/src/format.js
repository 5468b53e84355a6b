// How the page writes what the package returns: formatting only, no decisions.

/** An IngressBackend as the tests file writes it: `service:port`, `resource:group/Kind/name`, `404`. */
export function backendLabel(backend) {
  if (backend == null) return "404";
  if (typeof backend === "string") return backend;
  if (backend.service) {
    const port = backend.service.port ?? {};
    return `${backend.service.name}:${port.number ?? port.name ?? ""}`;
  }
  if (backend.resource) {
    const r = backend.resource;
    return `resource:${r.apiGroup ?? ""}/${r.kind}/${r.name}`;
  }
  return String(backend);
}

/**
 * What a decision answers, as one line: the backend, `redirect 308 https://…` for a redirect, or
 * `a:80 90% · b:80 10%` for a weighted split (each weight out of their sum).
 */
export function answerLabel(decision) {
  if (decision.redirect) return `redirect ${decision.redirect.status} ${decision.redirect.location}`;
  if (decision.split) {
    const total = decision.split.reduce((sum, w) => sum + w.weight, 0) || 1;
    return decision.split.map((w) => `${backendLabel(w.backend)} ${Math.round((w.weight * 1000) / total) / 10}%`).join(" · ");
  }
  return backendLabel(decision.backend);
}

/** A decision's answer as the CLI's `route` and tests files write it (`split(a:80 90, b:80 10)`). */
export function testsLabel(decision) {
  if (decision.redirect) return `redirect ${decision.redirect.status} ${decision.redirect.location}`;
  if (decision.split) return `split(${decision.split.map((w) => `${backendLabel(w.backend)} ${w.weight}`).join(", ")})`;
  return backendLabel(decision.backend);
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text made safe for innerHTML. */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A host as the table writes it: `(any host)` for host-less rules. */
export function hostLabel(host) {
  return host ? host : "(any host)";
}

/** An error as one line (the package's IngressRouterError messages name the place already). */
export function errorText(error) {
  return error?.message ?? String(error);
}

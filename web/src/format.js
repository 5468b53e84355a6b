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

// How the page writes what the package returns: formatting only, no decisions.

/**
 * What a decision answers, for the page: its label, except that a weighted split shows each
 * side's share of the sum (`a:80 90% · b:80 10%`).
 */
export function answerLabel(decision) {
  if (!decision.split) return decision.label;
  const total = decision.split.reduce((sum, w) => sum + w.weight, 0) || 1;
  return decision.split.map((w) => `${w.label} ${Math.round((w.weight * 1000) / total) / 10}%`).join(" · ");
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

/**
 * What a Gateway API decision answers, for the page: the backend (`ns/name:port`), each side of a
 * split with its share of the weights, the redirect, or the status alone (404, 500).
 */
export function gatewayAnswerLabel(d) {
  if (d.redirect) return `redirect ${d.redirect.status} ${d.redirect.location}`;
  if (d.split?.length) {
    const total = d.split.reduce((sum, b) => sum + b.weight, 0) || 1;
    return d.split.map((b) => `${b.label}${b.invalid ? " (500)" : ""} ${Math.round((b.weight * 1000) / total) / 10}%`).join(" · ");
  }
  // One backend: the label is `namespace/name:port`.
  if (d.backend && d.status === 200) return d.label;
  return String(d.status);
}

/** The gRPC status a decision carries, named by the package: ` · gRPC UNIMPLEMENTED (12)`, or "". */
export function grpcStatusText(d) {
  return d?.grpcStatus != null ? ` · gRPC ${d.grpcStatusName} (${d.grpcStatus})` : "";
}

// How a request was answered (the package's `via` codes), in words; the page shows the code beside.
const VIA_WORDS = {
  rule: "a rule matched",
  defaultBackend: "the default backend answered",
  none: "no rule matched, and no default backend",
  rejected: "the proxy refused the request",
  redirect: "the proxy answered with a redirect",
  noListener: "no listener of the Gateway takes the request",
  noGateway: "no Gateway to route through",
  filterError: "a filter the proxy cannot apply",
  noValidBackend: "no valid backend to send it to",
};

/** A `via` code in words (the code itself when the page has no words for it). */
export function viaWords(via) {
  return VIA_WORDS[via] ?? via;
}

/**
 * What was left out of routing, in the package's words: Ingresses (`table().excluded`: another
 * class, invalid) or routes not attached to the listener (`explain().routes`).
 */
export function leftOutText(items, max = 4) {
  const shown = items.slice(0, max).map((x) => `${x.name} (${x.reason})`);
  const more = items.length - shown.length;
  return shown.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

/** Whether a router's decision is a Gateway API one. */
export function isGatewayDecision(d) {
  return d != null && "listener" in d && "status" in d;
}

/** When the request's regex budget ran out: some regexes answered "no match" unread. */
export function budgetNote(decision) {
  return decision?.regexBudgetExhausted
    ? " · some regular expressions were not read: the request's regex budget (regexLimits.scan) ran out, and they answered no match"
    : "";
}

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

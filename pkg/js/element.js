// <ingress-route-demo src="ingress.yaml" url="https://shop.example.com/cart" profile="ingress-nginx">:
// which backend serves a URL, and why, for documentation pages. Manifests come from `src` or from an
// inline <script type="application/yaml"> child; `profile` is the compile option of that name.
// <ingress-route-demo table="shop.table">: a precompiled table (`ingress-router compile -o`),
// loaded by the package's route-only entry: the page never downloads the compiler.
// No dependencies; the routing (and the check of the profile's name) is the package's.

// The package's entries, each imported the first time an element needs it.
let mainEntry = null;
let routeOnlyEntry = null;
function entry(routeOnly) {
  if (routeOnly) return (routeOnlyEntry ??= import("./route-only.js"));
  return (mainEntry ??= import("./browser.js"));
}

const STYLE = `
:host { display: block; color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif;
  --ird-fg: #1b1f24; --ird-bg: #ffffff; --ird-muted: #57606a; --ird-border: #d0d7de;
  --ird-accent: #0550ae; --ird-ok: #116329; --ird-no: #82071e; --ird-code: #f6f8fa; }
@media (prefers-color-scheme: dark) {
  :host { --ird-fg: #e6edf3; --ird-bg: #0d1117; --ird-muted: #9198a1; --ird-border: #3d444d;
    --ird-accent: #4493f8; --ird-ok: #3fb950; --ird-no: #f85149; --ird-code: #161b22; }
}
.box { color: var(--ird-fg); background: var(--ird-bg); border: 1px solid var(--ird-border);
  border-radius: 6px; padding: 12px; }
form { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
label { font-weight: 600; }
input { flex: 1 1 20em; min-width: 0; font: 13px ui-monospace, monospace; padding: 4px 6px;
  color: var(--ird-fg); background: var(--ird-code); border: 1px solid var(--ird-border); border-radius: 4px; }
button { font: inherit; padding: 4px 12px; border-radius: 4px; border: 1px solid var(--ird-accent);
  color: var(--ird-bg); background: var(--ird-accent); cursor: pointer; }
input:focus-visible, button:focus-visible, summary:focus-visible { outline: 2px solid var(--ird-accent); outline-offset: 2px; }
output { display: block; margin-top: 10px; }
.backend { font: 600 15px ui-monospace, monospace; }
.error { color: var(--ird-no); white-space: pre-wrap; }
code, .mono { font: 13px ui-monospace, monospace; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0 0; }
dt { color: var(--ird-muted); }
dd { margin: 0; }
details { margin-top: 8px; }
summary { cursor: pointer; color: var(--ird-accent); }
ol { margin: 6px 0 0; padding-left: 1.6em; }
li { margin: 4px 0; }
.ok { color: var(--ird-ok); }
.no { color: var(--ird-no); }
.reason { color: var(--ird-muted); display: block; }
`;

let ids = 0;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("aria-") || key === "role" || key === "for" || key === "part") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

export class IngressRouteDemo extends HTMLElement {
  static observedAttributes = ["src", "table", "url", "profile"];

  #api = null; // the entry the router comes from
  #bytes = null; // the table last loaded (`table`)
  #router = null;
  #loading = null;
  #text = null; // the manifests last loaded, kept so that a new profile recompiles without fetching again
  #input;
  #output;

  constructor() {
    super();
    const id = `ird-${++ids}`;
    const root = this.attachShadow({ mode: "open" });
    this.#input = el("input", { id, type: "text", name: "url", spellcheck: false, autocomplete: "off", part: "input" });
    const form = el(
      "form",
      { "aria-label": "Route a request" },
      el("label", { for: id }, "URL"),
      this.#input,
      el("button", { type: "submit", part: "button" }, "Route"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.route(this.#input.value);
    });
    this.#output = el("output", { "aria-live": "polite", for: id, part: "output" });
    root.append(el("style", { textContent: STYLE }), el("div", { class: "box", part: "box" }, form, this.#output));
  }

  connectedCallback() {
    if (!this.#router && !this.#loading) this.#load();
  }

  disconnectedCallback() {
    this.#router?.free();
    this.#router = null;
  }

  attributeChangedCallback(name, before, after) {
    if (before === after || !this.isConnected) return;
    if (name === "src" || name === "table") this.#load();
    else if (name === "profile") {
      if (this.#text !== null) this.#compile(this.#input.value); // while loading, #load reads the new value
    } else this.route(after ?? "");
  }

  /** Routes `url` and shows the decision and its explanation. */
  route(url) {
    this.#input.value = url;
    if (!this.#router) return;
    try {
      this.#show(this.#router.explain(url));
    } catch (error) {
      // The router was lost to an internal error elsewhere (the module was instantiated again):
      // compile the manifests again rather than show it.
      if (error?.kind === "lost" && (this.#text !== null || this.#bytes !== null)) this.#compile(url);
      else this.#fail(error);
    }
  }

  async #load() {
    this.#router?.free();
    this.#router = null;
    this.#text = null;
    this.#bytes = null;
    const table = this.getAttribute("table");
    const loading = (this.#loading = Promise.all([table ? this.#table(table) : this.#manifests(), entry(table !== null)]));
    let source;
    try {
      [source, this.#api] = await loading;
    } catch (error) {
      if (loading === this.#loading) this.#fail(error);
      return;
    }
    if (loading !== this.#loading) return; // a newer src or table won
    this.#loading = null;
    if (table) this.#bytes = source;
    else this.#text = source;
    this.#compile(this.getAttribute("url") ?? this.#input.value);
  }

  /** Compiles the loaded manifests with the current profile (or loads the table), then routes `url`. */
  #compile(url) {
    this.#router?.free();
    this.#router = null;
    const profile = this.getAttribute("profile");
    const { compile, load, loadTable } = this.#api;
    try {
      // Absent: the package's default (`spec`). Any other value goes as written: the package names a bad one.
      this.#router = this.#bytes ? loadTable(this.#bytes) : compile(this.#text, profile === null ? {} : { profile });
    } catch (error) {
      this.#input.value = url;
      if (error?.kind === "engine") {
        // The ingress-nginx profile (or Gateway API objects): the package's second module is
        // fetched now, the first time this page needs it; then the same text compiles again.
        const text = this.#text;
        load().then(
          () => text === this.#text && this.getAttribute("profile") === profile && this.#compile(url),
          (e) => this.#fail(e),
        );
        return;
      }
      this.#fail(error);
      return;
    }
    this.route(url);
  }

  async #table(table) {
    const response = await fetch(new URL(table, document.baseURI));
    if (!response.ok) throw new Error(`cannot load ${table}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  async #manifests() {
    const src = this.getAttribute("src");
    if (src) {
      const response = await fetch(new URL(src, document.baseURI));
      if (!response.ok) throw new Error(`cannot load ${src}: HTTP ${response.status}`);
      return response.text();
    }
    const inline = this.querySelector('script[type="application/yaml"], script[type="application/json"]');
    if (!inline) throw new Error('no manifests: set src="..." or add a <script type="application/yaml"> child');
    return inline.textContent;
  }

  #fail(error) {
    this.#output.replaceChildren(el("p", { class: "error", role: "alert" }, String(error?.message ?? error)));
  }

  #show(explanation) {
    if ("listeners" in explanation) return this.#showGateway(explanation);
    const { decision } = explanation;
    const lead = decision.via === "redirect" ? "Answered with " : "Served by ";
    const summary = el("p", {}, lead, el("span", { class: "backend", part: "backend" }, decision.label));
    const facts = el("dl");
    const fact = (term, value) => facts.append(el("dt", {}, term), el("dd", { class: "mono" }, value));
    fact("via", decision.via);
    if (decision.matched) {
      const m = decision.matched;
      fact("Ingress", m.ingress);
      fact("rule", `${m.host || "(any host)"} ${m.pathType} ${m.path || '""'}`);
      fact("field", m.field);
    }
    if (decision.defaultFrom) fact("default of", decision.defaultFrom);
    // The ingress-nginx profile's answers: a redirect instead of a backend, a weighted canary, a rewrite.
    if (decision.redirect) fact("redirect", `${decision.redirect.status} → ${decision.redirect.location}`);
    if (decision.split) {
      const total = decision.split.reduce((sum, w) => sum + w.weight, 0);
      for (const w of decision.split) fact("split", `${w.label} weight ${w.weight} of ${total}`);
    }
    if (decision.upstreamPath) fact("upstream path", decision.upstreamPath);
    fact("host tier", explanation.tierReason);
    if (explanation.decidedBy) fact("decided by", explanation.decidedBy);
    if (explanation.defaultReason) fact("default", explanation.defaultReason);

    const considered = explanation.candidates.filter((c) => c.considered);
    const list = el("ol", { "aria-label": "Paths of the chosen host, in precedence order" });
    for (const c of considered) {
      const mark = c.chosen ? "chosen" : c.matched ? "matches, loses" : "no match";
      list.append(
        el(
          "li",
          {},
          el("span", { class: c.matched ? "ok" : "no" }, `${c.chosen ? "✓" : c.matched ? "✓" : "✗"} `),
          el("span", { class: "mono" }, `${c.pathType} ${c.path || '""'} → ${c.backend}`),
          ` (${mark}, ${c.ingress})`,
          el("span", { class: "reason" }, c.reason),
        ),
      );
    }
    const details = el(
      "details",
      {},
      el("summary", {}, `Why: ${considered.length} path${considered.length === 1 ? "" : "s"} competed`),
      list,
    );
    this.#output.replaceChildren(summary, facts, details);
  }

  /** A Gateway API explanation: the listener, the HTTPRoute rule that won, and why every other lost. */
  #showGateway(explanation) {
    const { decision } = explanation;
    const lead = decision.redirect ? "Answered with " : decision.status === 200 ? "Served by " : "Answered ";
    const summary = el("p", {}, lead, el("span", { class: "backend", part: "backend" }, decision.label));
    const facts = el("dl");
    const fact = (term, value) => facts.append(el("dt", {}, term), el("dd", { class: "mono" }, value));
    fact("status", `${decision.status} (${decision.via})`);
    if (decision.gateway) fact("Gateway", decision.gateway);
    if (decision.listener) fact("listener", decision.listener);
    if (decision.route) {
      fact("HTTPRoute", decision.route);
      fact("rule", `rules[${decision.rule}]${decision.ruleName ? ` (${decision.ruleName})` : ""}.matches[${decision.match}]`);
    }
    if (decision.split) for (const b of decision.split) fact("split", `${b.label} weight ${b.weight}`);
    if (decision.upstream) fact("upstream", `Host ${decision.upstream.host} · ${decision.upstream.path}`);

    const list = el("ol", { "aria-label": "HTTPRoute rules, and why each did or did not win" });
    let count = 0;
    for (const route of explanation.routes) {
      if (route.reason) {
        list.append(el("li", {}, el("span", { class: "no" }, "✗ "), el("span", { class: "mono" }, route.route), el("span", { class: "reason" }, `not attached: ${route.reason}`)));
        continue;
      }
      for (const c of route.candidates ?? []) {
        count++;
        const won = c.outcome.outcome === "won";
        list.append(
          el(
            "li",
            {},
            el("span", { class: won ? "ok" : "no" }, won ? "✓ " : "✗ "),
            el("span", { class: "mono" }, `${route.route} rules[${c.rule}]${c.ruleName ? ` (${c.ruleName})` : ""}`),
            el("span", { class: "reason" }, c.reason),
          ),
        );
      }
    }
    const details = el("details", {}, el("summary", {}, `Why: ${count} rule match${count === 1 ? "" : "es"} competed`), list);
    this.#output.replaceChildren(summary, facts, details);
  }
}

if (!customElements.get("ingress-route-demo")) customElements.define("ingress-route-demo", IngressRouteDemo);

// Where an object's field is in the editor text, to underline diagnostics and highlight the
// matched rule. The package names places as (object, field path) and, for validation errors,
// line and column; this maps them to text ranges by walking the editor's own YAML syntax tree
// (Lezer, parsed incrementally as the text changes). It reads nothing else from the manifests:
// no routing, validation or status logic lives here.
import { ensureSyntaxTree, syntaxTree } from "@codemirror/language";

/** `spec.rules[0].http.paths[1]` → ["spec", "rules", 0, "http", "paths", 1]; `a[b.c]` → ["a", "b.c"]. */
export function fieldPath(field) {
  const keys = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[1] !== undefined) keys.push(m[1]);
    else keys.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
  }
  return keys;
}

const CLUSTER_SCOPED = new Set(["IngressClass", "GatewayClass"]);
const MAPPINGS = new Set(["BlockMapping", "FlowMapping"]);
const SEQUENCES = new Set(["BlockSequence", "FlowSequence"]);
const WRAPPERS = new Set(["Tagged", "Anchored"]);
const PUNCTUATION = new Set(["-", ",", "[", "]", "{", "}", ":", "?", "Comment", "Anchor", "Tag"]);

export class Locator {
  /** `state`: the editor state whose text the package read. */
  constructor(state) {
    this.state = state;
    this.index = null;
    // node start → its entries (Map of key → value, or array of values), built on first use.
    this.entries = new Map();
    // `kind/namespace/name` + "\n" + field → range, as `rangeOf` found it.
    this.ranges = new Map();
    // What the locator of the text before the edit found, and the edit ({index, ranges, changes}):
    // a range in an object the edit did not touch is the old one shifted, not searched again (a
    // keystroke places every diagnostic).
    this.previous = null;
  }

  /**
   * The locator of `state`, which `changes` (a CodeMirror ChangeSet, or null when the text is
   * the same) made from this locator's text.
   */
  next(state, changes) {
    const next = new Locator(state);
    const fits = changes
      ? changes.length === this.state.doc.length && changes.newLength === state.doc.length
      : state.doc === this.state.doc;
    if (fits && this.index) next.previous = { index: this.index, ranges: this.ranges, changes };
    return next;
  }

  /** The range `key`/`field` had before the edit, shifted, if the edit left its object alone. */
  shifted(key, cacheKey, object) {
    const old = this.previous?.ranges.get(cacheKey);
    const before = old && this.previous.index.get(key);
    if (!before) return undefined;
    const { changes } = this.previous;
    const { from, to } = before.node;
    // `touchesRange` counts an edit at either end too: typing right after an object may extend it.
    if (changes?.touchesRange(from, to)) return undefined;
    const delta = object.node.from - from;
    if ((changes?.mapPos(from) ?? from) !== object.node.from || to + delta !== object.node.to) return undefined;
    return { from: old.from + delta, to: old.to + delta };
  }

  text(node) {
    return this.state.doc.sliceString(node.from, node.to);
  }

  /** A scalar's value (quotes removed). */
  scalar(node) {
    if (!node) return undefined;
    const raw = this.text(node).trim();
    if (node.name === "QuotedLiteral") {
      if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
      try {
        return JSON.parse(raw);
      } catch {
        return raw.slice(1, -1);
      }
    }
    return raw;
  }

  /** The value node of `node`, past tags and anchors. */
  static unwrap(node) {
    while (node && WRAPPERS.has(node.name)) node = node.lastChild;
    return node;
  }

  /** The entries of a mapping (Map key → value node) or sequence (array of value nodes). */
  entriesOf(node) {
    const cacheKey = `${node.name}@${node.from}`;
    let entries = this.entries.get(cacheKey);
    if (entries) return entries;
    const valueAfter = (first) => {
      let value = null;
      for (let c = first; c; c = c.nextSibling) if (!PUNCTUATION.has(c.name)) value = c;
      return Locator.unwrap(value);
    };
    if (MAPPINGS.has(node.name)) {
      entries = new Map();
      for (let pair = node.firstChild; pair; pair = pair.nextSibling) {
        const k = pair.name === "Pair" ? pair.getChild("Key") : null;
        const key = k && this.scalar(k.firstChild);
        if (key !== undefined && key !== null && !entries.has(key)) entries.set(key, valueAfter(k.nextSibling));
      }
    } else {
      entries = [];
      for (let item = node.firstChild; item; item = item.nextSibling) {
        if (item.name === "Item") entries.push(valueAfter(item.firstChild) ?? item);
      }
    }
    this.entries.set(cacheKey, entries);
    return entries;
  }

  /** The value of key `key` in a mapping, or of index `key` in a sequence. */
  get(node, key) {
    node = Locator.unwrap(node);
    if (!node) return null;
    if (MAPPINGS.has(node.name)) return this.entriesOf(node).get(String(key)) ?? null;
    if (SEQUENCES.has(node.name) && typeof key === "number") return this.entriesOf(node)[key] ?? null;
    return null;
  }

  /** The syntax tree of the whole text (parsed to the end, within a time budget). */
  tree() {
    return ensureSyntaxTree(this.state, this.state.doc.length, 500) ?? syntaxTree(this.state);
  }

  /** kind/namespace/name → node of every object, built once. */
  objects() {
    if (this.index) return this.index;
    this.index = new Map();
    const add = (node) => {
      node = Locator.unwrap(node);
      if (!node || !MAPPINGS.has(node.name)) return;
      const kind = this.scalar(this.get(node, "kind"));
      if (kind === "List") {
        const items = this.get(node, "items");
        if (items && SEQUENCES.has(items.name)) for (const item of this.entriesOf(items)) add(item);
        return;
      }
      const meta = this.get(node, "metadata");
      const name = this.scalar(this.get(meta, "name"));
      if (!kind || name === undefined) return;
      const namespace = CLUSTER_SCOPED.has(kind) ? "" : (this.scalar(this.get(meta, "namespace")) ?? "default");
      const key = `${kind}/${namespace}/${name}`;
      if (!this.index.has(key)) this.index.set(key, { kind, namespace, name, node, type: this.scalar(this.get(this.get(node, "spec"), "type")) });
    };
    for (let doc = this.tree().topNode.firstChild; doc; doc = doc.nextSibling) {
      if (doc.name !== "Document") continue;
      for (let c = doc.firstChild; c; c = c.nextSibling) {
        const node = Locator.unwrap(c);
        if (node && SEQUENCES.has(node.name)) {
          for (const item of this.entriesOf(node)) add(item);
        } else {
          add(node);
        }
      }
    }
    return this.index;
  }

  /** Start and end of what `node` holds (a block mapping's range starts at its first key). */
  span(node) {
    let from = node.from;
    let to = node.to;
    if (node.name === "BlockMapping" || node.name === "BlockSequence" || node.name === "Item") {
      let first = node.firstChild;
      while (first && first.name === "Comment") first = first.nextSibling;
      if (first) from = first.from;
      let last = node.lastChild;
      while (last && last.name === "Comment" && last.prevSibling) last = last.prevSibling;
      if (last) to = last.to;
    }
    return { from, to };
  }

  /** The range of `field` (its deepest part that exists) of the object `kind namespace/name`. */
  rangeOf(kind, namespace, name, field = "") {
    const key = `${kind}/${CLUSTER_SCOPED.has(kind) ? "" : (namespace ?? "default")}/${name}`;
    const o = this.objects().get(key);
    if (!o) return null;
    const cacheKey = `${key}\n${field}`;
    let range = this.ranges.get(cacheKey) ?? this.shifted(key, cacheKey, o);
    if (!range) {
      let node = o.node;
      for (const part of fieldPath(field)) {
        const next = this.get(node, part);
        if (!next) break;
        node = next;
      }
      range = this.span(node);
    }
    this.ranges.set(cacheKey, range);
    return { ...range };
  }

  /** Names of the IngressClasses, for the class suggestions. */
  classNames() {
    return [...this.objects().values()].filter((o) => o.kind === "IngressClass").map((o) => o.name);
  }

  /** `namespace/name` of every Service, LoadBalancers first, for the publish Service suggestions. */
  services() {
    const services = [...this.objects().values()].filter((o) => o.kind === "Service");
    services.sort((a, b) => Number(b.type === "LoadBalancer") - Number(a.type === "LoadBalancer"));
    return services.map((o) => `${o.namespace}/${o.name}`);
  }

  /** How many objects of each kind the text holds (which views apply: Gateway API, migration). */
  kinds() {
    const counts = {};
    for (const o of this.objects().values()) counts[o.kind] = (counts[o.kind] ?? 0) + 1;
    return counts;
  }

  /** `namespace/name` of every Gateway, for the Gateway selector. */
  gateways() {
    return [...this.objects().values()].filter((o) => o.kind === "Gateway").map((o) => `${o.namespace}/${o.name}`);
  }
}

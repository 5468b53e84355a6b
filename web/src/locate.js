// Where an object's field is in the editor text, to underline diagnostics and highlight the
// matched rule. The package names places as (object, field path) and, for validation errors,
// (document, line, column); this maps them to text ranges with the `yaml` parser's source ranges.
// It reads nothing else from the manifests: no routing, validation or status logic lives here.
import { isMap, isSeq, parseAllDocuments } from "yaml";

/** `spec.rules[0].http.paths[1]` → ["spec", "rules", 0, "http", "paths", 1]; `a[b.c]` → ["a", "b.c"]. */
export function fieldPath(field) {
  const keys = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[1] !== undefined) keys.push(m[1]);
    else keys.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
  }
  return keys;
}

const CLUSTER_SCOPED = new Set(["IngressClass"]);

export class Locator {
  constructor(text) {
    this.text = text;
    this.parsed = null;
  }

  /** The YAML documents, parsed on first use (the text of one update is read once). */
  documents() {
    if (!this.parsed) {
      try {
        this.parsed = parseAllDocuments(this.text, { uniqueKeys: false, strict: false });
        if (!Array.isArray(this.parsed)) this.parsed = [];
      } catch {
        this.parsed = [];
      }
    }
    return this.parsed;
  }

  /** Every object of the text with its document number (1-based) and its node. */
  *objects() {
    let number = 0;
    for (const doc of this.documents()) {
      number += 1;
      const root = doc.contents;
      const items = isMap(root) && root.get("kind") === "List" ? root.get("items") : isSeq(root) ? root : null;
      if (items && isSeq(items)) {
        for (const item of items.items) if (isMap(item)) yield { document: number, node: item };
      } else if (isMap(root)) {
        yield { document: number, node: root };
      }
    }
  }

  /** The object named by kind, namespace and name (the namespace defaults to "default"). */
  find(kind, namespace, name) {
    for (const o of this.objects()) {
      const meta = o.node.get("metadata");
      if (o.node.get("kind") !== kind || !isMap(meta) || String(meta.get("name")) !== name) continue;
      if (CLUSTER_SCOPED.has(kind) || String(meta.get("namespace") ?? "default") === (namespace ?? "default")) return o;
    }
    return null;
  }

  /** The object that is document `document` (1-based), or item `item` of it. */
  inDocument(document, item) {
    let index = 0;
    for (const o of this.objects()) {
      if (o.document !== document) continue;
      if (item === undefined || item === null || index === item) return o;
      index += 1;
    }
    return null;
  }

  /** Names of the IngressClasses in the text, for the class suggestions. */
  classNames() {
    const names = [];
    for (const o of this.objects()) {
      const meta = o.node.get("metadata");
      if (o.node.get("kind") === "IngressClass" && isMap(meta)) names.push(String(meta.get("name")));
    }
    return names;
  }

  /** `{kind, namespace, name}` of every Service, for the publish Service suggestions. */
  services() {
    const found = [];
    for (const o of this.objects()) {
      const meta = o.node.get("metadata");
      if (o.node.get("kind") === "Service" && isMap(meta)) {
        found.push({ namespace: String(meta.get("namespace") ?? "default"), name: String(meta.get("name")), type: String(o.node.get("spec")?.get?.("type") ?? "ClusterIP") });
      }
    }
    return found;
  }

  /** The text range of `field` inside `node` (the deepest part of it that exists). */
  static rangeIn(node, field) {
    let current = node;
    for (const key of fieldPath(field)) {
      const next = isMap(current) || isSeq(current) ? current.get(key, true) : undefined;
      if (!next || !next.range) break;
      current = next;
    }
    return current?.range ? { from: current.range[0], to: current.range[1] } : null;
  }

  /** The range of a field of the object `kind namespace/name`. */
  rangeOf(kind, namespace, name, field = "") {
    const o = this.find(kind, namespace, name);
    return o ? Locator.rangeIn(o.node, field) : null;
  }
}

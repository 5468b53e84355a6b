// The package's problems placed in the editor's text: input errors and validation errors at the
// line and column the package gives, diagnostics at the field they name.
import { offsetOf } from "./editor.js";
import { errorText } from "./format.js";

const KIND_GROUP = { Ingress: "Ingress.networking.k8s.io", IngressClass: "IngressClass.networking.k8s.io" };

/** Places problems in `view`'s text, finding fields with `locator`. */
export class Problems {
  constructor(view, locator) {
    this.view = view;
    this.locator = locator;
  }

  lineOf(offset) {
    const line = this.view.state.doc.lineAt(offset);
    return { line: line.number, column: offset - line.from + 1 };
  }

  lineEnd(from) {
    return this.view.state.doc.lineAt(from).to;
  }

  /** An IngressRouterError (unreadable manifests) at its line and column. */
  input(error) {
    const from = error.line ? offsetOf(this.view, error.line, error.column) : 0;
    const to = Math.max(this.lineEnd(from), from + 1);
    return { from, to, severity: "error", title: errorText(error), message: errorText(error), line: error.line, column: error.column };
  }

  /** Each apiserver error of a validation report, with the apiserver's message for its object. */
  validation(report) {
    const problems = [];
    for (const object of report.objects ?? []) {
      for (const error of object.errors ?? []) {
        const range = this.locator.rangeOf(object.kind, object.namespace, object.name, error.field);
        const from = error.line ? offsetOf(this.view, error.line, error.column) : (range?.from ?? 0);
        const to = range && range.from === from ? range.to : this.lineEnd(from);
        const apiserver = `${KIND_GROUP[object.kind] ?? object.kind} "${object.name}" is invalid: ${error.message}`;
        problems.push({ from, to, severity: "error", title: error.message, message: apiserver, ...this.lineOf(from) });
      }
      // Refused before validation: fields strict decoding rejects, or an API version no longer served.
      for (const unknown of object.unknownFields ?? []) {
        const range = this.locator.rangeOf(object.kind, object.namespace, object.name, unknown.field);
        const from = unknown.line ? offsetOf(this.view, unknown.line, unknown.column) : (range?.from ?? 0);
        const to = range && range.from === from ? range.to : this.lineEnd(from);
        const title = `unknown field "${unknown.field}"${unknown.hint ? `: ${unknown.hint}` : ""}`;
        problems.push({ from, to, severity: "error", title, message: `${title}\n${object.message}`, ...this.lineOf(from) });
      }
      if (object.v1Changes?.length) {
        const range = this.locator.rangeOf(object.kind, object.namespace, object.name, "apiVersion");
        const from = range?.from ?? 0;
        const message = [object.message, ...object.v1Changes].join("\n");
        problems.push({ from, to: Math.max(this.lineEnd(from), from + 1), severity: "error", title: object.message, message, ...this.lineOf(from) });
      }
    }
    return problems;
  }

  /** Compile diagnostics, at the field of the first object each names. */
  diagnostics(diagnostics) {
    return diagnostics
      .filter((d) => d.code !== "invalid-ingress") // each of its errors comes from validate, placed
      .map((d) => {
        const ref = d.objects?.[0];
        const range = ref ? this.locator.rangeOf(ref.kind, ref.namespace, ref.name, ref.field ?? "") : null;
        const from = range?.from ?? 0;
        const to = range ? Math.min(range.to, this.lineEnd(from)) : this.lineEnd(0);
        const severity = d.severity === "note" ? "info" : d.severity;
        const title = `${d.severity}[${d.code}]: ${d.message}`;
        return { from, to: Math.max(to, from + 1), severity, title, message: `${title}${d.fix ? `\nfix: ${d.fix}` : ""}`, fix: d.fix, ...this.lineOf(from) };
      });
  }
}

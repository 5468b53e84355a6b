// The one error class the package throws. `kind` says what was wrong; input errors also say where
// (`source`, `document`, `line`, `column`, `field`, whichever are known).
export class IngressRouterError extends Error {
  constructor(message, details) {
    super(message);
    this.name = "IngressRouterError";
    this.kind = "internal";
    if (details && typeof details === "object") Object.assign(this, details);
  }
}

// Requests as a person types them. Tests files are read and written by the package (the core's
// one tests-file format): this file only turns a requests-list line into a request and back.

/**
 * One line of the requests list: `[METHOD] URL` or `[METHOD] HOST [PATH]`.
 * Returns `{text, url?, host?, path?, method?}`, `{text, error}` for a line that is neither (the
 * page flags it and routes the others), or null for blank lines and `#` comments.
 */
export function parseRequestLine(line) {
  const text = line.trim();
  if (!text || text.startsWith("#")) return null;
  const words = text.split(/\s+/);
  const method = /^[A-Z]+$/.test(words[0]) && words.length > 1 ? words.shift() : undefined;
  const form = "write [METHOD] URL or [METHOD] HOST PATH";
  if (words[0].includes("://")) {
    if (words.length > 1) return { text, error: `"${words.slice(1).join(" ")}" after the URL: ${form}` };
    return { text, url: words[0], method };
  }
  if (words.length > 2) return { text, error: `${words.length} words where a host and a path go: ${form}` };
  const [host, path = "/"] = words;
  if (host.includes("/")) return { text, error: `"${host}" is no host (a URL needs its scheme, http:// or https://): ${form}` };
  if (!path.startsWith("/")) return { text, error: `the path "${path}" does not start with /: ${form}` };
  return { text, host, path, method };
}

/** The request the package routes (its `RequestSpec`): the line's target and method, and the page's headers. */
export function requestSpec(request, headers) {
  const spec = request.url ? { url: request.url } : { host: request.host, path: request.path };
  if (request.method) spec.method = request.method;
  if (headers && Object.keys(headers).length > 0) spec.headers = headers;
  return spec;
}

/**
 * A gRPC call as the package routes it (`RequestSpec.grpc`): the package makes it a POST to
 * `/SERVICE/METHOD` with `content-type: application/grpc`; the metadata are its headers.
 */
export function grpcSpec(call) {
  const spec = { host: call.host.trim(), grpc: `${call.service.trim()}/${call.method.trim()}` };
  const metadata = parseHeaders(call.metadata);
  if (Object.keys(metadata).length > 0) spec.headers = metadata;
  return spec;
}

/**
 * The first call a GRPCRoute of a Gateway API table (`Router.table()`) names by exact service and
 * method, as the request box's fields: a hostname of the route (else the listener's, else null; a
 * wildcard's `*` made a label), and the match's exact metadata. Null when no GRPCRoute names one.
 */
export function grpcCallOf(table) {
  for (const listener of table.listeners ?? []) {
    for (const route of listener.routes) {
      if (route.kind !== "GRPCRoute" || route.notAttached) continue;
      for (const rule of route.rules) {
        for (const match of rule.matches) {
          const g = match.grpcMethod;
          if (!g || g.type !== "Exact" || !g.service || !g.method) continue;
          const hostname = [...route.hostnames, listener.hostname].find(Boolean);
          return {
            host: hostname ? hostname.replace(/^\*\./, "api.") : null,
            service: g.service,
            method: g.method,
            metadata: headerLines(Object.fromEntries(match.headers.filter((h) => h.type === "Exact").map((h) => [h.name, h.value]))),
          };
        }
      }
    }
  }
  return null;
}

/** `Name: value` lines → {name: value}. */
export function parseHeaders(text) {
  const headers = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return headers;
}

/** {name: value} → `Name: value` lines. */
export function headerLines(headers) {
  return Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`).join("\n");
}

/** A tests file's request as a requests-list line (`[METHOD] URL` or `[METHOD] HOST PATH`). */
export function requestLine(request) {
  let target = request.url ?? `${request.host} ${request.path ?? "/"}`;
  // A scheme given beside host and path: the line says it as a URL.
  if (!request.url && request.scheme) target = `${request.scheme}://${request.host}${request.path ?? "/"}`;
  return request.method ? `${request.method} ${target}` : target;
}

/**
 * What the page takes from a tests file the package read (`readTests`): one requests-list line
 * per test, the expected label of each, the headers (the page holds one set for every request),
 * and the options. Throws an Error when the page cannot hold the file as it is.
 */
export function fromTestsFile(file) {
  const headerSets = new Set(file.tests.map((t) => JSON.stringify(Object.entries(t.request.headers ?? {}).sort())));
  if (headerSets.size > 1) {
    throw new Error("its tests send different headers; the page sends one set of headers with every request");
  }
  return {
    lines: file.tests.map((t) => requestLine(t.request)),
    expected: file.tests.map((t) => t.expect.backend),
    headers: headerLines(file.tests[0]?.request.headers),
    options: file.options ?? {},
  };
}

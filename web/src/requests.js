// Requests as a person types them, and the tests file `ingress-router test` reads.
import { parse, stringify } from "yaml";

/** `https://host:port/path?q` → {host: "host:port", path: "/path?q", scheme: "https"}, split as written (no normalising). */
export function splitUrl(url) {
  const scheme = /^(https?):\/\//i.exec(url)?.[1].toLowerCase();
  const rest = url.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//, "");
  const cut = rest.search(/[/?#]/);
  const host = cut < 0 ? rest : rest.slice(0, cut);
  const path = cut < 0 ? "/" : rest.slice(cut);
  return { host, path: path.startsWith("/") ? path : `/${path}`, scheme };
}

/**
 * One line of the requests list: `[METHOD] URL` or `[METHOD] HOST PATH`.
 * Returns `{text, url?, host?, path?, method?}` or null for blank lines and `#` comments.
 */
export function parseRequestLine(line) {
  const text = line.trim();
  if (!text || text.startsWith("#")) return null;
  const words = text.split(/\s+/);
  const method = /^[A-Z]+$/.test(words[0]) && words.length > 1 ? words.shift() : undefined;
  if (words[0].includes("://")) return { text, url: words[0], method };
  return { text, host: words[0], path: words[1] ?? "/", method };
}

/** The argument for `router.route` / `router.explain`. */
export function routeArgument(request, headers) {
  const hasHeaders = headers && Object.keys(headers).length > 0;
  if (request.url && !request.method && !hasHeaders) return request.url;
  const { host, path, scheme } = request.url ? splitUrl(request.url) : request;
  const arg = { host, path };
  if (scheme) arg.scheme = scheme; // the ingress-nginx profile's TLS redirects read it
  if (request.method) arg.method = request.method;
  if (hasHeaders) arg.headers = headers;
  return arg;
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

/** The tests file for `results` ({request, decision}) and the page's options. */
export function exportTestsFile(results, options) {
  const fileOptions = {};
  if (options.ingressClass) fileOptions.ingressClass = options.ingressClass;
  if (options.implementationSpecific) fileOptions.implementationSpecific = options.implementationSpecific;
  if (options.profile) fileOptions.profile = options.profile;
  const tests = results.map(({ request, decision, backend }) => {
    const req = request.url ? { url: request.url } : { host: request.host, path: request.path };
    if (request.method) req.method = request.method;
    const expect = { backend, via: decision.via };
    if (decision.matched) {
      const { ingress, host, path, pathType } = decision.matched;
      expect.matched = { ingress, host, path, pathType };
    }
    return { name: `${request.text} goes to ${backend}`, request: req, expect };
  });
  const header = "# Exported from the ingress-router playground. Run it with:\n#   ingress-router test -f MANIFESTS THIS_FILE\n";
  return header + stringify({ options: fileOptions, tests }, { lineWidth: 0 });
}

/**
 * Reads a tests file: `{lines, options, expected}` with one requests-list line per test and the
 * expected backend of each. Throws an Error naming what is wrong.
 */
export function importTestsFile(text) {
  const file = parse(text);
  if (!file || typeof file !== "object" || !Array.isArray(file.tests)) {
    throw new Error("not a tests file: it needs a top-level `tests:` list");
  }
  const lines = [];
  const expected = [];
  file.tests.forEach((test, i) => {
    const r = test?.request;
    if (!r || typeof r !== "object") throw new Error(`tests[${i}]: no request`);
    const target = r.url ? String(r.url) : `${r.host ?? ""} ${r.path ?? "/"}`;
    lines.push(r.method ? `${r.method} ${target}` : target);
    expected.push(test.expect?.backend == null ? null : String(test.expect.backend));
  });
  return { lines, options: file.options ?? {}, expected };
}

// Requests as a person types them. Tests files are read and written by the package (the core's
// one tests-file format): this file only turns a requests-list line into a request and back.

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

/** The request the package routes (its `RequestSpec`): the line's target and method, and the page's headers. */
export function requestSpec(request, headers) {
  const spec = request.url ? { url: request.url } : { host: request.host, path: request.path };
  if (request.method) spec.method = request.method;
  if (headers && Object.keys(headers).length > 0) spec.headers = headers;
  return spec;
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

// A tiny static file server for the built playground (no dependencies): `make play` and the
// browser tests both use it, so the tests see exactly what a person sees.
//
//   node serve.mjs [--root dist] [--host 127.0.0.1] [--port 8080]
//
// `--port 0` picks a free port. The first line on stdout is `serving http://HOST:PORT/`.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".yaml": "text/yaml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
};

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const root = resolve(option("root", join(fileURLToPath(new URL(".", import.meta.url)), "dist")));
const host = option("host", "127.0.0.1");
const port = Number(option("port", "8080"));

/** The file a request path names inside `root`, or null when it would leave it. */
function fileFor(urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  if (path.endsWith("/")) path += "index.html";
  const file = normalize(join(root, path));
  return file === root || file.startsWith(root + sep) ? file : null;
}

const server = createServer(async (req, res) => {
  const file = fileFor(req.url ?? "/");
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { Allow: "GET, HEAD" }).end();
    return;
  }
  try {
    if (!file || !(await stat(file)).isFile()) throw new Error("not a file");
    const body = await readFile(file);
    res.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      "Content-Length": body.length,
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    });
    res.end(req.method === "HEAD" ? undefined : body);
  } catch {
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found\n");
  }
});

server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  console.log(`serving http://${address}:${bound}/ from ${root} (Ctrl-C stops)`);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));

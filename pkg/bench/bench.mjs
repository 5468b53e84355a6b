// `make bench-js`: in one run, at 1 000 and 10 000 paths, route() called from JavaScript (object
// request in, Decision out) against the same lookup in native Rust, and compile() in wasm against
// native (both from the same manifests text). Medians of rounds; prints a Markdown table.
// Arguments: the native_bench binary, and a scratch folder.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "../dist/node.js";

const [native, scratch] = process.argv.slice(2);
const ROUNDS = 11;
const REQUESTS = 4096;

// Deterministic pseudo-random numbers (xorshift), so every run measures the same tables.
let state = 0x2545f491;
const random = (n) => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) % n;
};

/** `paths` paths over paths/10 hosts (a tenth of them wildcards), Prefix and Exact, 1-3 segments. */
function table(paths) {
  const hosts = Math.max(1, paths / 10);
  const ingresses = [];
  for (let h = 0; h < hosts; h++) {
    const host = h % 10 === 9 ? `*.t${h}.example.com` : `h${h}.example.com`;
    const rulePaths = [];
    for (let p = 0; p < 10; p++) {
      const segments = Array.from({ length: 1 + random(3) }, () => `s${random(50)}`);
      rulePaths.push({
        path: `/${segments.join("/")}`,
        pathType: random(4) === 0 ? "Exact" : "Prefix",
        backend: { service: { name: `svc-${h}-${p}`, port: { number: 8080 } } },
      });
    }
    ingresses.push({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: `ing-${h}`, namespace: `ns-${h % 7}` },
      spec: { rules: [{ host, http: { paths: rulePaths } }] },
    });
  }
  return { ingresses, hosts };
}

/** Hits (deeper paths), near misses, unknown hosts, query strings and ports. */
function requests(ingresses, hosts) {
  const list = [];
  for (let i = 0; i < REQUESTS; i++) {
    const ing = ingresses[random(hosts)];
    const rule = ing.spec.rules[0];
    const host = rule.host.startsWith("*.") ? `x${random(9)}${rule.host.slice(1)}` : rule.host;
    const path = rule.http.paths[random(10)].path;
    switch (i % 5) {
      case 0: list.push({ host, path }); break;
      case 1: list.push({ host, path: `${path}/item/${i}` }); break;
      case 2: list.push({ host: `${host}:443`, path: `${path}x?id=${i}` }); break;
      case 3: list.push({ host: `unknown${i}.example.org`, path }); break;
      default: list.push({ host: host.toUpperCase(), path: `/s${random(50)}` });
    }
  }
  return list;
}

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];

const rows = [];
for (const paths of [1000, 10000]) {
  const { ingresses, hosts } = table(paths);
  const text = JSON.stringify({ apiVersion: "v1", kind: "List", items: ingresses });
  const reqs = requests(ingresses, hosts);
  const manifestsFile = join(scratch, `manifests-${paths}.json`);
  const requestsFile = join(scratch, `requests-${paths}.json`);
  writeFileSync(manifestsFile, text);
  writeFileSync(requestsFile, JSON.stringify(reqs.map((r) => [r.host, r.path])));

  // Warm up for a second: V8 first runs wasm on its baseline compiler and optimises in the
  // background, which takes a while on a busy machine.
  for (const start = performance.now(); performance.now() - start < 1000; ) compile(text).free();
  const compileMs = median(
    Array.from({ length: ROUNDS }, () => {
      const start = performance.now();
      compile(text).free();
      return performance.now() - start;
    }),
  );
  const router = compile(text);
  let sink = 0;
  // Three ways to ask, alternated round by round: {host, path} and a URL string take the fast
  // paths (two strings, or one, over the boundary; a cached answer back); a request with a method
  // takes the general path (the object read as JSON in the module, the decision built anew).
  const urls = reqs.map((r) => `http://${r.host}${r.path}`);
  const general = reqs.map((r) => ({ ...r, method: "GET" }));
  const variants = {
    parts: () => { for (const r of reqs) sink += router.route(r).via.length; },
    url: () => { for (const u of urls) sink += router.route(u).via.length; },
    general: () => { for (const r of general) sink += router.route(r).via.length; },
  };
  for (const start = performance.now(); performance.now() - start < 500; ) {
    for (const run of Object.values(variants)) run(); // warm up
  }
  const times = { parts: [], url: [], general: [] };
  for (let round = 0; round < ROUNDS * 4; round++) {
    for (const [name, run] of Object.entries(variants)) {
      const start = performance.now();
      run();
      times[name].push(((performance.now() - start) * 1e6) / reqs.length);
    }
  }
  const routeNs = median(times.parts);
  const urlNs = median(times.url);
  const generalNs = median(times.general);
  router.free();
  const nativeResult = JSON.parse(execFileSync(native, [manifestsFile, requestsFile, String(ROUNDS)], { encoding: "utf8" }));
  rows.push({ paths, routeNs, urlNs, generalNs, nativeRouteNs: nativeResult.routeNs, compileMs, nativeCompileMs: nativeResult.compileMs, sink });
}

const f = (x, digits = 0) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log(`Node ${process.version}, ${REQUESTS} requests per round, medians of ${ROUNDS * 4} (route) and ${ROUNDS} (compile) rounds\n`);
console.log("| paths | route({host, path}) ns | route(url) ns | route({host, path, method}) ns | native route ns | {host, path} / native | url / native | compile() wasm ms | native compile ms | wasm / native |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(
    `| ${f(r.paths)} | ${f(r.routeNs)} | ${f(r.urlNs)} | ${f(r.generalNs)} | ${f(r.nativeRouteNs)} | ${f(r.routeNs / r.nativeRouteNs, 1)}x | ${f(r.urlNs / r.nativeRouteNs, 1)}x | ${f(r.compileMs, 1)} | ${f(r.nativeCompileMs, 1)} | ${f(r.compileMs / r.nativeCompileMs, 1)}x |`,
  );
}

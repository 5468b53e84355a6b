// `make bench-js`: in one run, at 1 000 and 10 000 paths, route() called from JavaScript (object
// request in, Decision out) against the same lookup in native Rust, and compile() in wasm against
// native (both from the same manifests text). Medians of rounds; prints Markdown tables.
// Every timed variant runs once per round, in turn, and the native binary runs once per round
// between them (a fresh process each round: `native_bench ... 1`), so a busy machine slows all of
// them alike and the ratios hold. A second table splits a route() call into its parts.
// Arguments: the native_bench binary, a scratch folder, and optionally a baseline: another build's
// dist folder (in a folder whose package.json says "type": "module"), timed in the same rounds.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compile } from "../dist/node.js";
import { modules } from "../dist/instance.js";

const [native, scratch, baselineDir] = process.argv.slice(2);
const baseline = baselineDir ? await import(pathToFileURL(resolve(baselineDir, "node.js")).href) : null;
const ROUNDS = 11;
const REQUESTS = 4096;
const CHUNK = 512; // requests timed at once

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

const writeAscii = (view, at, s) => {
  for (let i = 0; i < s.length; i++) view[at + i] = s.charCodeAt(i);
};

// The order of the timed variants: numbers of their own, so that the tables stay the same.
let shuffleState = 0x9e3779b9;
const shuffle = (n) => {
  shuffleState ^= shuffleState << 13;
  shuffleState ^= shuffleState >>> 17;
  shuffleState ^= shuffleState << 5;
  return (shuffleState >>> 0) % n;
};

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
  const before = baseline?.compile(text);
  // The parts of a call, on a router of the glue itself (what Router wraps): the glue as the
  // package's first module has it, and the raw exports of its instance.
  const glue = modules.first.live("bench").glue;
  const exports = glue.initSync();
  const raw = glue.compile(text, undefined);
  const cache = [];
  const [pointer, length] = glue.scratch();
  let view = new Uint8Array(0);
  let sink = 0;
  // Three ways to ask: {host, path} and a URL string take the fast paths (two strings, or one,
  // over the boundary; a cached answer back); a request with a method takes the general path (the
  // object read as JSON in the module, the decision built anew). Then the parts of the first:
  // an empty exported call (__wbindgen_free of nothing returns at once); the glue's slot call with
  // the two strings (encoded into memory the glue allocates and the callee frees, and the lookup);
  // the slot call with the strings written as bytes into the module's scratch buffer instead (the
  // package's fast path for ASCII; every request here is); that plus the cache of decisions:
  // route({host, path}) less that is the wrapper.
  const urls = reqs.map((r) => `http://${r.host}${r.path}`);
  const general = reqs.map((r) => ({ ...r, method: "GET" }));
  // The other request forms (issue 32): headers, method and headers, a URL with a method, a gRPC call.
  const forms = {
    headers: reqs.map((r) => ({ ...r, headers: { "user-agent": "bench/1", accept: "*/*" } })),
    methodHeaders: reqs.map((r) => ({ ...r, method: "POST", headers: { "user-agent": "bench/1", accept: "*/*" } })),
    urlMethod: urls.map((url) => ({ url, method: "PUT" })),
    grpc: reqs.map((r) => ({ host: r.host, grpc: "bench.v1.Svc/Get" })),
  };
  const chunks = (list) => Array.from({ length: list.length / CHUNK }, (_, k) => list.slice(k * CHUNK, (k + 1) * CHUNK));
  const [reqChunks, urlChunks, generalChunks] = [chunks(reqs), chunks(urls), chunks(general)];
  const formChunks = Object.fromEntries(Object.entries(forms).map(([name, list]) => [name, chunks(list)]));
  const variants = {
    parts: (k) => { for (const r of reqChunks[k]) sink += router.route(r).via.length; },
    url: (k) => { for (const u of urlChunks[k]) sink += router.route(u).via.length; },
    general: (k) => { for (const r of generalChunks[k]) sink += router.route(r).via.length; },
    empty: (k) => { for (let i = 0; i < CHUNK; i++) exports.__wbindgen_free(0, 0, 1); },
    slot: (k) => { for (const r of reqChunks[k]) sink += raw.routeSlot(r.host, r.path); },
    scratch: (k) => {
      for (const r of reqChunks[k]) {
        if (view.length === 0) view = new Uint8Array(exports.memory.buffer, pointer, length);
        writeAscii(view, 0, r.host);
        writeAscii(view, r.host.length, r.path);
        sink += raw.routeScratch(r.host.length, r.path.length);
      }
    },
    cached: (k) => {
      for (const r of reqChunks[k]) {
        if (view.length === 0) view = new Uint8Array(exports.memory.buffer, pointer, length);
        writeAscii(view, 0, r.host);
        writeAscii(view, r.host.length, r.path);
        const slot = raw.routeScratch(r.host.length, r.path.length);
        const d = slot < 0 ? raw.routeParts(r.host, r.path) : (cache[slot] ??= raw.routeParts(r.host, r.path));
        sink += d.via.length;
      }
    },
  };
  for (const name of Object.keys(forms)) {
    variants[name] = (k) => { for (const r of formChunks[name][k]) sink += router.route(r).via.length; };
  }
  if (before) {
    variants.partsBefore = (k) => { for (const r of reqChunks[k]) sink += before.route(r).via.length; };
    variants.urlBefore = (k) => { for (const u of urlChunks[k]) sink += before.route(u).via.length; };
    variants.generalBefore = (k) => { for (const r of generalChunks[k]) sink += before.route(r).via.length; };
    for (const name of Object.keys(forms)) {
      variants[`${name}Before`] = (k) => { for (const r of formChunks[name][k]) sink += before.route(r).via.length; };
    }
  }
  for (const start = performance.now(); performance.now() - start < 500; ) {
    for (const run of Object.values(variants)) for (let k = 0; k < reqChunks.length; k++) run(k); // warm up
  }
  const times = Object.fromEntries([...Object.keys(variants), "native"].map((name) => [name, []]));
  for (let round = 0; round < ROUNDS * 4; round++) {
    // In chunks, each timed alone: on a busy machine a chunk the scheduler interrupted is an
    // outlier the median leaves out, where a whole round would rarely be spared.
    // A new order each chunk (a shuffle), so that no variant always runs first (after the native
    // process) or after the same other one (the general path leaves garbage to collect).
    const order = Object.entries(variants);
    for (let k = 0; k < reqChunks.length; k++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = shuffle(i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      for (const [name, run] of order) {
        const start = performance.now();
        run(k);
        times[name].push(((performance.now() - start) * 1e6) / CHUNK);
      }
    }
    const nativeResult = JSON.parse(execFileSync(native, [manifestsFile, requestsFile, "1"], { encoding: "utf8" }));
    times.native.push(nativeResult.routeNs);
  }
  const ns = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
  router.free();
  before?.free();
  raw.free();
  // compile() natively: rounds in one process, as the wasm side's.
  const nativeCompileMs = JSON.parse(execFileSync(native, [manifestsFile, requestsFile, String(ROUNDS)], { encoding: "utf8" })).compileMs;
  rows.push({ paths, ns, compileMs, nativeCompileMs, sink });
}

const f = (x, digits = 0) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const x = (a, b) => `${f(a / b, 1)}x`;
console.log(`Node ${process.version}, ${REQUESTS} requests per round, route: medians of ${ROUNDS * 4} rounds of ${REQUESTS / CHUNK} chunks of ${CHUNK} requests, each variant timed per chunk in a shuffled order, the native lookup one process per round (median of its own 4 passes) between them; compile: medians of ${ROUNDS} rounds\n`);
console.log("| paths | route({host, path}) ns | route(url) ns | route({host, path, method}) ns | native route ns | {host, path} / native | url / native | compile() wasm ms | native compile ms | wasm / native |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const { paths, ns, compileMs, nativeCompileMs } of rows) {
  console.log(
    `| ${f(paths)} | ${f(ns.parts)} | ${f(ns.url)} | ${f(ns.general)} | ${f(ns.native)} | ${x(ns.parts, ns.native)} | ${x(ns.url, ns.native)} | ${f(compileMs, 1)} | ${f(nativeCompileMs, 1)} | ${x(compileMs, nativeCompileMs)} |`,
  );
}
console.log("\nroute({host, path}), part by part (ns per call, medians of the same rounds; a part is the difference of two variants):\n");
console.log("| paths | empty exported call | glue routeSlot(host, path) | glue routeScratch | + decisions cache | route({host, path}) | native route | strings through the glue | scratch write and lookup | cache | wrapper |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const { paths, ns } of rows) {
  console.log(
    `| ${f(paths)} | ${f(ns.empty, 1)} | ${f(ns.slot)} | ${f(ns.scratch)} | ${f(ns.cached)} | ${f(ns.parts)} | ${f(ns.native)} | ${f(ns.slot - ns.scratch)} | ${f(ns.scratch - ns.empty)} | ${f(ns.cached - ns.scratch)} | ${f(ns.parts - ns.cached)} |`,
  );
}
if (baseline) {
  console.log(`\nAgainst the baseline build ${baselineDir}, in the same rounds:\n`);
  console.log("| paths | route({host, path}) baseline ns | this build ns | baseline / this | route(url) baseline ns | this build ns | baseline / this |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  for (const { paths, ns } of rows) {
    console.log(
      `| ${f(paths)} | ${f(ns.partsBefore)} | ${f(ns.parts)} | ${x(ns.partsBefore, ns.parts)} | ${f(ns.urlBefore)} | ${f(ns.url)} | ${x(ns.urlBefore, ns.url)} |`,
    );
  }
}

// Every request form, this build (and the baseline's, when given) against the native lookup of
// the same host and path (the spec profile reads no method or header: the same lookup).
const formNames = [["parts", "{host, path}"], ["url", "url"], ["general", "{host, path, method}"], ["headers", "{host, path, headers}"],
  ["methodHeaders", "{host, path, method, headers}"], ["urlMethod", "{url, method}"], ["grpc", "{host, grpc}"]];
console.log(`\nEvery request form, ns per call and ratio to native${baseline ? " (baseline, then this build)" : ""}:\n`);
console.log(`| form | paths | ${baseline ? "baseline ns | baseline / native | " : ""}ns | / native |`);
console.log(`|---|---:|${baseline ? "---:|---:|" : ""}---:|---:|`);
for (const [key, label] of formNames) {
  for (const { paths, ns } of rows) {
    const old = ns[`${key}Before`];
    console.log(`| \`route(${label})\` | ${f(paths)} | ${baseline ? `${f(old)} | ${x(old, ns.native)} | ` : ""}${f(ns[key])} | ${x(ns[key], ns.native)} |`);
  }
}

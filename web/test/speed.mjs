// Speed of the playground with manifests of 1 000 paths, measured in Chromium with
// performance.now() around the update (a benchmark, reported in the README; never pass/fail).
import { cpus, loadavg } from "node:os";
import { deflateRawSync } from "node:zlib";
import { openPage, screenshot, screenshotOf } from "./harness.mjs";

/** 10 hosts × 100 paths, one Ingress per host, a LoadBalancer publish Service. */
export function thousandPaths() {
  const docs = [];
  for (let h = 0; h < 10; h++) {
    const paths = [];
    for (let p = 0; p < 100; p++) {
      const type = p % 3 === 0 ? "Exact" : "Prefix";
      paths.push(`      - {path: /svc${p}/v${p % 4}, pathType: ${type}, backend: {service: {name: svc-${h}-${p}, port: {number: 80}}}}`);
    }
    docs.push(`apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: app-${h}, namespace: bench}\nspec:\n  rules:\n  - host: h${h}.example.com\n    http:\n      paths:\n${paths.join("\n")}`);
  }
  docs.push("apiVersion: v1\nkind: Service\nmetadata: {name: lb, namespace: bench}\nspec:\n  type: LoadBalancer\n  ports: [{name: http, port: 80}]\nstatus:\n  loadBalancer:\n    ingress: [{ip: 192.0.2.1}]");
  return `# speed: 1 000 paths\n${docs.join("\n---\n")}\n`;
}

function link(url, state) {
  const packed = deflateRawSync(Buffer.from(JSON.stringify(state))).toString("base64url");
  return `${url}#s=${packed}`;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2), n: s.length };
};

export async function speed(browser, url) {
  const state = {
    manifests: thousandPaths(),
    url: "https://h7.example.com/svc41/v1/items",
    requestSource: "url",
    method: "GET",
    headers: "",
    requests: Array.from({ length: 20 }, (_, i) => `https://h${i % 10}.example.com/svc${i * 3}/v${i % 4}`).join("\n"),
    options: { ingressClass: "", implementationSpecific: "prefix", profile: "spec" },
    publishService: "bench/lb",
  };
  const loads = [];
  const started = []; // the page's script running, the package instantiated
  const complete = []; // problems and status drawn too
  let page;
  for (let i = 0; i < 5; i++) {
    await page?.context().close();
    page = await openPage(browser, link(url, state)); // a first load: a new browser context
    loads.push(await page.evaluate(() => window.playground.timings.interactive));
    started.push(await page.evaluate(() => window.playground.timings.started));
    await page.waitForFunction(() => window.playground.timings.complete > 0);
    complete.push(await page.evaluate(() => window.playground.timings.complete));
  }
  // The measurements below are of this state, or of nothing.
  const shown = await page.evaluate(() => [document.getElementById("backend").textContent, document.getElementById("problem-count").textContent]);
  if (shown[0] !== "svc-7-41:80" || shown[1] !== "1000") throw new Error(`speed: the 1 000-path state did not load (${shown})`);
  const firstLoadSmall = [];
  for (let i = 0; i < 5; i++) {
    const p = await openPage(browser, url);
    firstLoadSmall.push(await p.evaluate(() => window.playground.timings.interactive));
    await p.context().close();
  }

  // A URL keystroke: the input event's whole update (route, explain, decision, picture, table
  // highlight, editor highlight), then a forced layout.
  const urlKeystroke = await page.evaluate(() => {
    const input = document.getElementById("url");
    const samples = [];
    const base = "https://h7.example.com/svc41/v1/items";
    for (let i = 0; i < 60; i++) {
      input.value = base.slice(0, base.length - (i % 12));
      const t0 = performance.now();
      input.dispatchEvent(new Event("input"));
      void document.body.offsetHeight;
      samples.push(performance.now() - t0);
    }
    return samples;
  });

  // A manifests keystroke: one character typed into the editor, then re-parse, validate,
  // compile, and redraw every view (problems, table, decision, picture, requests, status).
  // Typed into the comment on top (`inPath` false: no object changes), or into a path of the
  // fifth Ingress (its document is read again, and the whole input compiled and linted).
  const typeInManifests = (inPath) => page.evaluate(async (inPath) => {
    const view = window.playground.view;
    const samples = [];
    const decided = [];
    const parts = {};
    const text = view.state.doc.toString();
    const from = inPath ? text.indexOf("/svc41/v1", text.indexOf("name: app-4")) + "/svc41/v1".length : 10;
    for (let i = -3; i < 30; i++) { // three to warm up
      const t0 = performance.now();
      view.dispatch({ changes: { from, insert: "x" }, userEvent: "input.type" });
      void document.body.offsetHeight;
      const decision = performance.now() - t0;
      if (i >= 0) decided.push(decision);
      await window.playground.settled();
      void document.body.offsetHeight;
      if (i < 0) continue;
      samples.push(performance.now() - t0);
      for (const [k, v] of Object.entries(window.playground.timings.manifestParts)) (parts[k] ??= []).push(v);
    }
    return { samples, decided, parts };
  }, inPath);
  const manifestKeystroke = await typeInManifests(false);
  const pathKeystroke = await typeInManifests(true);
  await page.fill("#url", "https://h7.example.com/svc41/v1/items");
  await screenshot(page, "speed-1000-paths");
  await screenshotOf(page, "#request", "speed-1000-paths-request");
  await page.context().close();
  const median = (xs) => +[...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(2);
  return {
    paths: 1000,
    machine: `${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} when measured`,
    urlKeystroke: stats(urlKeystroke),
    manifestKeystrokeToDecision: stats(manifestKeystroke.decided),
    manifestKeystroke: stats(manifestKeystroke.samples),
    manifestKeystrokeParts: Object.fromEntries(Object.entries(manifestKeystroke.parts).map(([k, v]) => [k, median(v)])),
    pathKeystrokeToDecision: stats(pathKeystroke.decided),
    pathKeystroke: stats(pathKeystroke.samples),
    pathKeystrokeParts: Object.fromEntries(Object.entries(pathKeystroke.parts).map(([k, v]) => [k, median(v)])),
    firstLoad1000Paths: stats(loads),
    firstLoadScriptStarted: stats(started),
    firstLoad1000PathsComplete: stats(complete),
    firstLoadGalleryExample: stats(firstLoadSmall),
  };
}

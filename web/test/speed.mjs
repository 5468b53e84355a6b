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

/** The page's state with the 1 000 paths, a request into them and 20 "many requests" lines. */
export function thousandPathsState() {
  return {
    manifests: thousandPaths(),
    url: "https://h7.example.com/svc41/v1/items",
    requestSource: "url",
    method: "GET",
    headers: "",
    requests: Array.from({ length: 20 }, (_, i) => `https://h${i % 10}.example.com/svc${i * 3}/v${i % 4}`).join("\n"),
    options: { ingressClass: "", implementationSpecific: "prefix", profile: "spec" },
    publishService: "bench/lb",
  };
}

/** The share link's fragment for `state`, as the page writes it. */
export function shareHash(state) {
  return `#s=${deflateRawSync(Buffer.from(JSON.stringify(state))).toString("base64url")}`;
}

function link(url, state) {
  return `${url}${shareHash(state)}`;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2), n: s.length };
};

export async function speed(browser, url) {
  const state = thousandPathsState();
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

/**
 * Issue 33's aims, with 1 000 paths, each update timed in the page and its next frame (a task
 * posted from the frame's requestAnimationFrame: it runs once the frame is painted):
 * (a) a share link opened → decision shown, and painted; (b) a keystroke in a path → decision,
 * → next frame; (c) a 1 000-path manifest pasted → decision, → next frame; (d) a URL keystroke →
 * decision, → painted. `variants` are query strings of the page (`?defer=0`: the page as before);
 * they are measured alternately, `rounds` times each, and the medians reported per variant.
 */
export async function aims(browser, url, { variants = { before: "?defer=0", after: "" }, rounds = 2 } = {}) {
  const state = thousandPathsState();
  const samples = Object.fromEntries(Object.keys(variants).map((v) => [v, {}]));
  const add = (variant, key, values) => (samples[variant][key] ??= []).push(...values);
  for (let round = 0; round < rounds; round++) {
    for (const [variant, query] of Object.entries(variants)) {
      let page;
      for (let i = 0; i < 3; i++) {
        await page?.context().close();
        page = await openPage(browser, link(`${url}${query}`, state));
        const t = await page.evaluate(() => window.playground.timings);
        add(variant, "a: share link → decision", [t.interactive]);
        add(variant, "a: share link → painted", [t.painted]);
      }
      await page.waitForFunction(() => window.playground.timings.complete > 0);
      const shown = await page.evaluate(() => [document.getElementById("backend").textContent, document.getElementById("problem-count").textContent]);
      if (shown[0] !== "svc-7-41:80" || shown[1] !== "1000") throw new Error(`aims: the 1 000-path state did not load (${shown})`);
      const measured = await page.evaluate(async (manifests) => {
        const { view, timings } = window.playground;
        const out = {};
        const push = (key, value) => (out[key] ??= []).push(+value.toFixed(2));
        // The next frame: a task posted from its requestAnimationFrame runs once it is painted.
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        const settle = async () => {
          await window.playground.settled();
          await frame();
        };
        await settle();
        // (b) a keystroke in a path of the fifth Ingress.
        for (let i = -3; i < 20; i++) {
          const text = view.state.doc.toString();
          const from = text.indexOf("/svc41/v1", text.indexOf("name: app-4")) + "/svc41/v1".length;
          const t0 = performance.now();
          view.dispatch({ changes: { from, insert: "x" }, userEvent: "input.type" });
          const t1 = performance.now();
          void document.body.offsetHeight;
          const decided = performance.now();
          await frame();
          const painted = performance.now();
          await settle();
          if (i < 0) continue;
          push("b: path keystroke → decision", decided - t0);
          push("b: path keystroke → next frame", painted - t0);
          push("b: path keystroke → everything drawn", performance.now() - t0);
          push("b · editor (CodeMirror's update)", t1 - t0 - timings.manifests);
          push("b · layout forced after the update", decided - t1);
          for (const [k, v] of Object.entries(timings.manifestParts)) push(`b · ${k}`, v);
        }
        // (c) a 1 000-path manifest pasted over a small one (every document new to the workspace).
        for (let i = 0; i < 5; i++) {
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: "# a small start\n" }, userEvent: "input.paste" });
          await settle();
          const text = manifests.replaceAll("namespace: bench", `namespace: bench${i}`);
          const t0 = performance.now();
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: "input.paste" });
          void document.body.offsetHeight;
          const decided = performance.now();
          await frame();
          const painted = performance.now();
          await settle();
          if (document.getElementById("backend").textContent !== "svc-7-41:80") throw new Error(`paste: ${document.getElementById("backend").textContent}`);
          push("c: paste 1 000 paths → decision", decided - t0);
          push("c: paste 1 000 paths → next frame", painted - t0);
          push("c: paste 1 000 paths → everything drawn", performance.now() - t0);
        }
        // (d) a keystroke in the URL.
        const input = document.getElementById("url");
        const base = "https://h7.example.com/svc41/v1/items";
        for (let i = -3; i < 40; i++) {
          input.value = base.slice(0, base.length - ((i + 12) % 12));
          const t0 = performance.now();
          input.dispatchEvent(new Event("input"));
          const t1 = performance.now();
          void document.body.offsetHeight;
          const decided = performance.now();
          await frame();
          const painted = performance.now();
          await frame();
          if (i < 0) continue;
          push("d: URL keystroke → decision", decided - t0);
          push("d: URL keystroke → painted", painted - t0);
          push("d · layout forced after the update", decided - t1);
          for (const [k, v] of Object.entries(timings.routeParts)) push(`d · ${k}`, v);
        }
        return out;
      }, state.manifests);
      for (const [k, v] of Object.entries(measured)) add(variant, k, v);
      await page.context().close();
    }
  }
  const median = (xs) => +[...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(2);
  const rows = {};
  for (const [variant, byKey] of Object.entries(samples)) {
    for (const [k, v] of Object.entries(byKey)) (rows[k] ??= {})[variant] = median(v);
  }
  return { paths: 1000, machine: `${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} when measured`, rounds, variants, medians: rows };
}

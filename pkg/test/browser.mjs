// esbuild bundles a page that imports the package; it, a plain page with <ingress-route-demo> and
// a trap contained (test/trap/scenario.js) run in headless Chromium (Debian's, through
// playwright-core). Argument: the consumer project (the packed package installed in node_modules,
// shop.yaml and nginx.yaml beside it, the test-trap build of the package in trap/).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { copyFileSync, cpSync, mkdirSync, readFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const root = process.argv[2];
const here = new URL("./browser/", import.meta.url);
cpSync(new URL("bundle.html", here), join(root, "bundle.html"));
cpSync(new URL("element.html", here), join(root, "element.html"));
cpSync(new URL("app.js", here), join(root, "app.js"));
cpSync(new URL("trap.html", here), join(root, "trap.html"));
cpSync(new URL("table.html", here), join(root, "table.html"));
cpSync(new URL("manifests.html", here), join(root, "manifests.html"));
cpSync(new URL("./trap/scenario.js", import.meta.url), join(root, "trap-scenario.js"));
mkdirSync(join(root, "out"), { recursive: true });
await build({ entryPoints: [join(root, "app.js")], bundle: true, format: "esm", platform: "browser", outfile: join(root, "out/app.js"), absWorkingDir: root, logLevel: "warning" });
// esbuild leaves `new URL("ingress_router_bg.wasm", import.meta.url)` alone: both .wasm files go beside the bundle.
for (const wasm of ["ingress_router_bg.wasm", "ingress_router_engines_bg.wasm"]) {
  copyFileSync(join(root, "node_modules/ingress-router/dist", wasm), join(root, "out", wasm));
}

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".yaml": "text/yaml" };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  try {
    const body = readFileSync(join(root, path));
    res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;
// The trap page loads the test build: an unoptimised module whose code alone is over the 8 MB
// Chromium allows a synchronous `WebAssembly.Instance` on the main thread (the package's own
// modules are a fraction of that), so the flag lifts the limit for it; the asynchronous fallback
// has its own test (test/trap.mjs).
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--enable-features=WebAssemblyUnlimitedSyncCompilation"],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // (the trap page's panic on purpose is logged by the panic hook: expected, not shown)
  page.on("console", (m) => m.type() === "error" && !/a panic on purpose/.test(m.text()) && console.error(`[page] ${m.text()}`));

  // ---- the esbuild bundle
  await page.goto(`${base}/bundle.html`);
  await page.waitForFunction(() => window.result, null, { timeout: 30_000 }).catch((e) => {
    throw new Error(`the bundle page gave no result (${errors.join("; ") || e.message})`);
  });
  const result = await page.evaluate(() => window.result);
  assert.deepEqual(result.decision.backend, { service: { name: "cart-api", port: { number: 80 } } });
  assert.equal(result.explained.label, "cart-api:80");
  assert.deepEqual(result.explained.backend, result.decision.backend, "explain gives route's decision");
  assert.deepEqual(result.error, { isIngressRouterError: true, kind: "syntax", line: 2 });
  assert.equal(result.after, "rule");
  assert.match(result.version, /^\d+\.\d+\.\d+/);
  // The second module: not fetched by a page that routes with the spec profile; a call that needs
  // it before load() says so; after load() it answers.
  assert.deepEqual(result.fetchedBeforeLoad, ["ingress_router_bg.wasm"]);
  assert.equal(result.beforeLoad.isIngressRouterError, true);
  assert.equal(result.beforeLoad.kind, "engine");
  assert.match(result.beforeLoad.message, /^ingress-router: compile\(\): .*ingress-nginx profile.*`await load\(\)`/);
  assert.deepEqual(result.fetchedAfterLoad, ["ingress_router_bg.wasm", "ingress_router_engines_bg.wasm"]);
  assert.equal(result.nginx, "api:8080");
  assert.equal(result.spec, "web:80");
  console.log("esbuild bundle in Chromium (the second module fetched by load() only): ok");

  // ---- the element, in a plain page with one module import
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${base}/element.html`);
    const inline = page.locator("#inline");
    await inline.locator(".backend").waitFor({ timeout: 30_000 });
    assert.equal(await inline.locator(".backend").textContent(), "cart-api:8080");
    const fetched = page.locator("#fetched");
    await fetched.locator(".backend").waitFor();
    assert.equal(await fetched.locator(".backend").textContent(), "api-v2:8080");
    assert.match(await page.locator("#broken [role=alert]").textContent(), /line/);
    const background = await inline.locator(".box").evaluate((box) => getComputedStyle(box).backgroundColor);
    assert.equal(background, scheme === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)");
  }
  // Keyboard and screen reader: a labelled field, Enter routes, the result is announced.
  const inline = page.locator("#inline");
  const field = inline.getByLabel("URL");
  await field.focus();
  await field.fill("https://shop.example.com/about");
  await page.keyboard.press("Enter");
  await inline.locator(".backend", { hasText: "web:80" }).waitFor();
  assert.equal(await inline.locator("output").getAttribute("aria-live"), "polite");
  await page.keyboard.press("Tab");
  assert.equal(await inline.getByRole("button", { name: "Route" }).evaluate((b) => b.getRootNode().activeElement === b), true);
  await inline.locator("summary").focus();
  await page.keyboard.press("Enter");
  assert.equal(await inline.locator("details").evaluate((d) => d.open), true);
  assert.ok((await inline.getByRole("listitem").count()) === 2);
  // An invalid URL is shown as an alert, and the next one works.
  await field.fill("http://");
  await page.keyboard.press("Enter");
  await inline.getByRole("alert").waitFor();
  await field.fill("https://shop.example.com/cart");
  await page.keyboard.press("Enter");
  await inline.locator(".backend", { hasText: "cart-api:8080" }).waitFor();
  assert.deepEqual(errors, []);
  console.log("<ingress-route-demo> in Chromium (light, dark, keyboard): ok");

  // ---- the profile attribute, on nginx.yaml: the same URL answers differently under each profile.
  const nginx = page.locator("#nginx");
  // The facts shown, as [term, value] pairs.
  const facts = () => nginx.locator("dl").evaluate((dl) => [...dl.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]));
  const shown = async (backend) => {
    await nginx.locator(".backend", { hasText: backend }).waitFor();
    return facts();
  };
  const profile = (value) => nginx.evaluate((e, v) => (v === null ? e.removeAttribute("profile") : e.setAttribute("profile", v)), value);
  const route = (url) => nginx.evaluate((e, u) => e.route(u), url);
  // ingress-nginx: the regex location wins and the upstream receives the rewritten path.
  let shownFacts = await shown("api:8080");
  assert.ok(shownFacts.some(([t, v]) => t === "upstream path" && v === "/users?page=2"), JSON.stringify(shownFacts));
  // Every profile explains the same way: the server's locations compete, each with why it won or lost.
  const why = await nginx.locator("details summary").textContent();
  assert.match(why, /^Why: ([2-9]|\d\d+) paths competed$/, why);
  const items = await nginx.locator("details li").allTextContents();
  assert.ok(items.some((t) => t.includes("~* ^/api(/|$)(.*) → api:8080") && t.includes("chosen")), items.join("\n"));
  assert.ok(items.some((t) => t.includes("matches, loses") && t.includes("comes first")), items.join("\n"));
  // spec: no regexes, `/` wins, nothing is rewritten; without the attribute, the same.
  for (const value of ["spec", null]) {
    await profile(value);
    shownFacts = await shown("web:80");
    assert.ok(!shownFacts.some(([t]) => t === "upstream path"), JSON.stringify(shownFacts));
    assert.ok(shownFacts.some(([t, v]) => t === "rule" && v === "regex.example.com Prefix /"), JSON.stringify(shownFacts));
  }
  // A TLS redirect only under ingress-nginx.
  await route("http://secure.example.com/account");
  await shown("secure:443");
  await profile("ingress-nginx");
  shownFacts = await shown("redirect 308");
  assert.ok(shownFacts.some(([t, v]) => t === "redirect" && v === "308 → https://secure.example.com/account"), JSON.stringify(shownFacts));
  assert.match(await nginx.locator("output p").first().textContent(), /^Answered with redirect 308/);
  // A canary by weight: both backends and their weights.
  await route("https://canary.example.com/");
  shownFacts = await shown("split(");
  assert.deepEqual(shownFacts.filter(([t]) => t === "split"), [["split", "app-v1:80 weight 90 of 100"], ["split", "app-v2:80 weight 10 of 100"]]);
  // An unknown profile: the package's error, naming the value, shown in the element; then a good one recovers.
  await profile("nginx");
  assert.match(await nginx.getByRole("alert").textContent(), /unknown profile "nginx"/);
  assert.equal(await nginx.locator(".backend").count(), 0);
  await profile("ingress-nginx");
  await shown("split(");
  // Set in the page from the start, too.
  assert.match(await page.locator("#badprofile").getByRole("alert").textContent(), /unknown profile "nginx"/);
  assert.deepEqual(errors, []);
  console.log("<ingress-route-demo profile> in Chromium (ingress-nginx, spec, unknown): ok");

  // ---- Gateway API manifests: the element loads the second module and shows the HTTPRoute rule
  // that won, and in the package's words why the other lost.
  const gateway = page.locator("#gateway");
  await gateway.locator(".backend", { hasText: "app/cart-api:8080" }).waitFor({ timeout: 30_000 });
  const gatewayFacts = await gateway.locator("dl").evaluate((dl) => [...dl.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]));
  assert.deepEqual(gatewayFacts.slice(0, 5), [["status", "200 (rule)"], ["Gateway", "infra/public"], ["listener", "http"], ["HTTPRoute", "app/shop"], ["rule", "rules[0].matches[0]"]]);
  const reasons = await gateway.locator("details li").allTextContents();
  assert.deepEqual(reasons, ["✓ app/shop rules[0]matches, and wins", "✗ app/shop rules[1]matches, but the winner has a longer path"]);
  await gateway.evaluate((e) => e.route("http://shop.example.com/about"));
  await gateway.locator(".backend", { hasText: "app/web:80" }).waitFor();
  assert.deepEqual(errors, []);
  console.log("<ingress-route-demo> with Gateway API manifests in Chromium: ok");

  // ---- a docs page: <ingress-route-demo table> loads only the route-only entry and module; the same
  // page with the manifests (src) loads the compiler. Each loaded cold (a new browser context, no
  // cache) three times: the JS and wasm it fetched (each file gzip -9, as a server would send it)
  // and the time from navigation to the first decision shown.
  const docsPage = async (file, id) => {
    const context = await browser.newContext();
    const docs = await context.newPage();
    const pageErrors = [];
    docs.on("pageerror", (e) => pageErrors.push(e.message));
    const fetched = [];
    docs.on("response", (r) => fetched.push(r));
    await docs.goto(`${base}/${file}`);
    const shownAt = await docs.waitForFunction((id) => {
      const backend = document.getElementById(id)?.shadowRoot?.querySelector(".backend");
      return backend && [performance.now(), backend.textContent];
    }, id, { polling: "raf", timeout: 30_000 });
    const [ms, backend] = await shownAt.jsonValue();
    const files = [];
    let bytes = 0;
    for (const r of fetched) {
      const name = new URL(r.url()).pathname.split("/").pop();
      if (!/\.(js|wasm)$/.test(name)) continue;
      files.push(name);
      bytes += gzipSync(await r.body(), { level: 9 }).length;
    }
    await context.close();
    assert.deepEqual(pageErrors, [], file);
    return { ms, backend, files: files.sort(), bytes };
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const docsFigures = {};
  for (const [file, id] of [["table.html", "table"], ["manifests.html", "manifests"]]) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await docsPage(file, id));
    assert.deepEqual(runs.map((r) => r.backend), ["cart-api:80", "cart-api:80", "cart-api:80"], file);
    docsFigures[id] = { bytes: runs[0].bytes, files: runs[0].files, ms: median(runs.map((r) => r.ms)) };
  }
  assert.ok(docsFigures.table.files.includes("ingress_router_route_bg.wasm"), docsFigures.table.files.join(" "));
  assert.ok(!docsFigures.table.files.some((f) => /^ingress_router(_engines)?(_bg\.wasm|\.js)$/.test(f)), `the table page loads no compiler: ${docsFigures.table.files.join(" ")}`);
  assert.ok(docsFigures.manifests.files.includes("ingress_router_bg.wasm"), docsFigures.manifests.files.join(" "));
  for (const [id, f] of Object.entries(docsFigures)) {
    console.log(`docs page: ${id}: ${f.bytes} bytes gzip (JS + wasm: ${f.files.join(", ")}), first decision ${f.ms.toFixed(0)} ms after navigation (median of 3)`);
  }

  // ---- a trap in the wasm (the test build): contained, and a fresh instance, synchronously, twice
  await page.goto(`${base}/trap.html`);
  await page.waitForFunction(() => window.trapResult, null, { timeout: 30_000 }).catch((e) => {
    throw new Error(`the trap page gave no result (${errors.join("; ") || e.message})`);
  });
  const trapped = await page.evaluate(() => window.trapResult);
  assert.equal(trapped.error, undefined);
  assert.equal(trapped.seen.length, 2);
  // <ingress-route-demo> compiled before the traps: its router was lost, it compiled again.
  assert.deepEqual(trapped.element, ["web:80", "cart-api:8080", null]);
  assert.deepEqual(errors, []);
  console.log("a trap in Chromium: contained, recovered twice: ok");
} finally {
  await browser.close();
  server.close();
}

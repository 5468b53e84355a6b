// Browser tests of the playground (`make test-web`): the built page (web/dist) served by
// serve.mjs, driven in Debian's Chromium through playwright-core. Decisions shown by the page are
// compared with the CLI's answers for the same manifests, and a few with the Kubernetes
// documentation's. Screenshots go to web/screenshots/, speed figures to web/screenshots/speed.json.
import assert from "node:assert/strict";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { launch, openPage, screenshot, screenshotOf, shotsDir, startServer, webDir } from "./harness.mjs";
import { aims, speed } from "./speed.mjs";
import { gatewayAnswerLabel } from "../src/format.js";

const repo = join(webDir, "..");
const execFileAsync = promisify(execFile);
const cli = process.env.INGRESS_ROUTER_CLI ?? join(repo, "target/debug/ingress-router");
const gallery = JSON.parse(await readFile(join(webDir, "gallery/index.json"), "utf8"));
const axeSource = await readFile(join(webDir, "node_modules/axe-core/axe.min.js"), "utf8");

/**
 * The CLI's decision for `url` (a requests-list line: `[METHOD] URL`) over a manifests file; a
 * Gateway API decision (`options.gateway`, or a Gateway and no Ingress) gets the page's `label`.
 */
function cliRoute(file, line, options = {}, headers = "") {
  const [method, url] = line.includes(" ") ? line.split(/\s+/) : [null, line];
  const args = ["route", "--json", "-f", file, url, "--options", JSON.stringify(options)];
  if (method) args.push("-X", method);
  for (const h of headers.split("\n").filter(Boolean)) args.push("-H", h);
  const d = JSON.parse(execFileSync(cli, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  if ("listener" in d) d.label = gatewayAnswerLabel(d);
  return d;
}

async function decision(page) {
  return {
    backend: (await page.textContent("#backend")).trim(),
    via: (await page.textContent("#via")).trim(),
    matched: (await page.textContent("#matched")).trim(),
  };
}

async function typeUrl(page, url) {
  await page.fill("#url", "");
  await page.type("#url", url); // one input event per character, as a person types
}

const matchedLines = (page) => page.$$eval(".cm-line[data-matched-rule]", (lines) => lines.map((l) => l.textContent));

/** Until the page has drawn everything for what it holds (the package's second module loaded, if needed). */
const settled = (page) => page.evaluate(() => window.playground.settled());

async function loadExample(page, id) {
  await page.selectOption("#gallery", id);
  await settled(page);
}

const grantClipboard = (page) => page.context().grantPermissions(["clipboard-read", "clipboard-write"]);

/** Replaces the editor's text as a paste would. */
async function pasteManifests(page, text) {
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
  await settled(page);
}

const editorText = (page) => page.evaluate(() => window.playground.view.state.doc.toString());

const tests = [];
const test = (name, fn, options) => tests.push({ name, fn, options });

test("every gallery example loads and shows the CLI's decisions", async (page) => {
  for (const example of gallery) {
    const id = example.file.replace(/\.yaml$/, "");
    await loadExample(page, id);
    const file = join(webDir, "gallery", example.file);
    assert.equal(await editorText(page), await readFile(file, "utf8"), `${id}: editor holds the example`);
    const shown = await decision(page);
    // An example with a GRPCRoute opens on a gRPC call its GRPCRoutes name; the others on its URL.
    const grpc = await page.isChecked("#kind-grpc");
    assert.equal(grpc, /^kind: GRPCRoute$/m.test(await readFile(file, "utf8")), `${id}: the request box sends a gRPC call`);
    const [line, headers] = grpc ? await grpcCallLine(page) : [example.url, example.headers];
    const expected = cliRoute(file, line, example.options, headers);
    assert.equal(shown.backend, expected.label, `${id}: ${line}`);
    assert.ok(shown.via.startsWith(expected.via), `${id}: via ${shown.via} vs ${expected.via}`);
    const rows = await page.$$eval(".results tbody tr", (trs) => trs.map((tr) => tr.querySelectorAll("td")[2]?.textContent.trim()));
    assert.equal(rows.length, example.requests.length, `${id}: one result per request`);
    example.requests.forEach((url, i) => assert.equal(rows[i], cliRoute(file, url, example.options, example.headers).label, `${id}: ${url}`));
    if (expected.rule != null) {
      // A Gateway API decision: the winning rule of the HTTPRoute is highlighted.
      const lines = await matchedLines(page);
      assert.ok(lines.length > 0, `${id}: the winning rule is highlighted`);
      if (expected.ruleName) assert.ok(lines.join("\n").includes(expected.ruleName), `${id}: rule ${expected.ruleName} highlighted (got ${lines})`);
      assert.match(shown.matched, new RegExp(`${expected.routeKind ?? "HTTPRoute"} ${expected.route} · rules\\[${expected.rule}\\]`));
    }
    if (expected.matched) {
      const lines = (await matchedLines(page)).join("\n");
      assert.ok(lines.includes(expected.matched.path), `${id}: the matched rule ${expected.matched.path} is highlighted (got ${lines})`);
    }
    await screenshot(page, `gallery-${id}`);
  }
});

test("switching the profile on the ingress-nginx example changes the decision, as the CLI says", async (page) => {
  const example = gallery.find((g) => g.file === "ingress-nginx-regex.yaml");
  const file = join(webDir, "gallery", example.file);
  await loadExample(page, "ingress-nginx-regex");
  assert.match(await page.textContent("#example-note"), /Switch Profile to ingress-nginx/);
  const spec = await decision(page);
  assert.equal(spec.backend, cliRoute(file, example.url).label);
  assert.ok(await page.isHidden("#upstream"), "no upstream path under spec");

  await page.selectOption("#profile", "ingress-nginx");
  const expected = cliRoute(file, example.url, { profile: "ingress-nginx" });
  await page.waitForFunction((b) => document.getElementById("backend").textContent.trim() === b, expected.label);
  const nginx = await decision(page);
  assert.notEqual(nginx.backend, spec.backend, "the profile changes the answer");
  assert.equal(nginx.backend, "api:8080");
  assert.ok(nginx.matched.includes("/api(/|$)(.*)"), nginx.matched);
  assert.equal((await page.textContent("#upstream code")).trim(), expected.upstreamPath);
  assert.match(await page.textContent("#flow .nginx-steps"), /location ~\* \^\/api/);
  const rows = await page.$$eval(".results tbody tr", (trs) => trs.map((tr) => tr.querySelectorAll("td")[2]?.textContent.trim()));
  example.requests.forEach((url, i) => assert.equal(rows[i], cliRoute(file, url, { profile: "ingress-nginx" }).label, url));

  // A redirect and a split, written from the package's result.
  await pasteManifests(page, `${await readFile(file, "utf8")}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: secure, namespace: web}
spec:
  ingressClassName: nginx
  tls: [{hosts: [secure.example.com], secretName: tls}]
  rules: [{host: secure.example.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: a, port: {number: 80}}}}]}}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: canary
  namespace: web
  annotations: {nginx.ingress.kubernetes.io/canary: "true", nginx.ingress.kubernetes.io/canary-weight: "10"}
spec:
  ingressClassName: nginx
  rules: [{host: secure.example.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: b, port: {number: 80}}}}]}}]
`);
  await typeUrl(page, "http://secure.example.com/cart");
  await page.waitForFunction(() => document.getElementById("backend").textContent.startsWith("redirect"));
  assert.equal((await decision(page)).backend, "redirect 308 https://secure.example.com/cart");
  await typeUrl(page, "https://secure.example.com/cart");
  await page.waitForFunction(() => document.getElementById("backend").textContent.includes("%"));
  assert.equal((await decision(page)).backend, "a:80 90% · b:80 10%");
  await screenshot(page, "profile-ingress-nginx");
});

test("the package's second module is fetched only when the page needs it: not for spec-profile Ingresses, then for ingress-nginx", async (page) => {
  const wasm = () => page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name.split("/").pop()).filter((n) => n.endsWith(".wasm")));
  await loadExample(page, "ingress-nginx-regex");
  await typeUrl(page, "https://regex.example.com/api/users");
  assert.equal((await decision(page)).backend, "web:80");
  assert.deepEqual(await wasm(), ["ingress_router_bg.wasm"], "a spec-profile page loads the first module only");
  await page.selectOption("#profile", "ingress-nginx");
  await settled(page);
  assert.equal((await decision(page)).backend, "api:8080");
  assert.deepEqual(await wasm(), ["ingress_router_bg.wasm", "ingress_router_engines_bg.wasm"]);
  // Once loaded, the spec profile answers from it as before.
  await page.selectOption("#profile", "spec");
  assert.equal((await decision(page)).backend, "web:80");
});

test("typing URLs shows the backend, the highlighted rule, the winner and why the others lost", async (page) => {
  await loadExample(page, "merged-conflict");
  await typeUrl(page, "https://shop.example.com/api/orders");
  let d = await decision(page);
  assert.equal(d.backend, "api-v1:8080");
  assert.equal(d.via, "rule");
  assert.match(d.matched, /shop\/storefront/);
  assert.deepEqual(await matchedLines(page), ["      - {path: /api, pathType: Prefix, backend: {service: {name: api-v1, port: {number: 8080}}}}"]);
  assert.match(await page.textContent("#flow .key"), /older Ingress/);
  assert.match(await page.textContent("#flow tr.lost"), /shadowed/);
  assert.match(await page.textContent("#table tr.winner"), /api-v1:8080/);

  await typeUrl(page, "https://shop.example.com/api/v2/orders");
  d = await decision(page);
  assert.equal(d.backend, "api-v2:8080");
  assert.deepEqual(await matchedLines(page), ["      - {path: /api/v2, pathType: Prefix, backend: {service: {name: api-v2, port: {number: 8080}}}}"]);
  assert.match(await page.textContent("#flow .key"), /longest match|1\./);

  await typeUrl(page, "https://shop.example.com/apiary"); // element-wise: /api does not match
  assert.equal((await decision(page)).backend, "web:80");

  await loadExample(page, "docs-path-matching");
  await typeUrl(page, "https://exact.example.com/foo/");
  d = await decision(page);
  assert.equal(d.backend, "404");
  assert.equal(d.via, "none");
  assert.deepEqual(await matchedLines(page), []);
  await typeUrl(page, "https://longest.example.com/aaa/ccc");
  assert.equal((await decision(page)).backend, "aaa:80");

  await loadExample(page, "resource-backend");
  await typeUrl(page, "https://cdn.example.com/static/logo.png");
  assert.equal((await decision(page)).backend, "resource:storage.example.com/Bucket/static-assets");
  assert.equal((await matchedLines(page))[0].trim(), "- path: /static");

  // When the defaultBackend answers, it is what the editor highlights.
  await loadExample(page, "default-backend");
  await typeUrl(page, "https://docs.example.com/blog");
  d = await decision(page);
  assert.equal(d.backend, "docs-home:http");
  assert.match(d.via, /^defaultBackend/);
  assert.deepEqual((await matchedLines(page)).map((l) => l.trim()), ["service: {name: docs-home, port: {name: http}}"]);

  // Host and path fields drive the request too.
  await loadExample(page, "wildcard-hosts");
  await page.fill("#host", "a.eu.example.com");
  await page.fill("#path", "/app/x");
  assert.equal((await decision(page)).backend, "eu-app:8080");
  assert.equal(await page.inputValue("#url"), "https://a.eu.example.com/app/x");
});

test("pasted manifests are routed", async (page) => {
  const manifests = `{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
  "metadata": {"name": "pasted", "namespace": "default"},
  "spec": {"rules": [{"host": "paste.example.com", "http": {"paths": [
    {"path": "/docs", "pathType": "Prefix", "backend": {"service": {"name": "docs", "port": {"name": "http"}}}}]}}]}}`;
  await pasteManifests(page, manifests);
  assert.equal(await editorText(page), manifests);
  await typeUrl(page, "http://paste.example.com/docs/intro");
  assert.equal((await decision(page)).backend, "docs:http");
  assert.match((await matchedLines(page)).join(""), /"\/docs"/);
});

test("a request past the regex budget says so under the decision (issue 28)", async (page) => {
  const paths = Array.from({ length: 40 }, (_, i) =>
    `      - {path: "/(.*a){20}x${i}", pathType: ImplementationSpecific, backend: {service: {name: re, port: {number: 80}}}}`);
  await pasteManifests(page, `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: re, namespace: default, annotations: {nginx.ingress.kubernetes.io/use-regex: "true"}}
spec:
  rules:
  - host: re.example.com
    http:
      paths:
${paths.join("\n")}
`);
  await page.selectOption("#profile", "ingress-nginx");
  await settled(page);
  // 40 regexes that each read a whole 60 KiB path: past the 256 KiB budget the rest answer no match.
  await page.fill("#url", `http://re.example.com/${"abcdefghijklmnopqrstuvwxyz/".repeat(2300)}`);
  await page.waitForFunction(() => /regex budget/.test(document.getElementById("matched").textContent));
  await typeUrl(page, "http://re.example.com/aaaaaaaaaaaaaaaaaaaax7");
  const short = await decision(page);
  assert.equal(short.backend, "re:80");
  assert.doesNotMatch(short.matched, /regex budget/);
});

test("broken YAML and invalid objects are shown at their line", async (page) => {
  await pasteManifests(page, "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: x: y\nspec: {}\n");
  await page.waitForSelector(".cm-lint-marker-error");
  assert.match(await page.textContent("#problems li"), /line 4:10/);
  assert.match(await page.textContent("#problems li"), /mapping values are not allowed/);
  const markerLines = await page.evaluate(() => {
    const view = window.playground.view;
    return [...document.querySelectorAll(".cm-lint-marker-error")].map((m) => view.state.doc.lineAt(view.lineBlockAtHeight(m.getBoundingClientRect().top - view.documentTop + 2).from).number);
  });
  assert.deepEqual(markerLines, [4]);
  assert.notEqual((await decision(page)).backend, "404");
  assert.match((await decision(page)).matched, /cannot be read/);
  await screenshot(page, "broken-yaml");

  await loadExample(page, "invalid");
  const underlined = await page.$$eval(".cm-lintRange-error", (ranges) => ranges.map((r) => r.textContent));
  assert.ok(underlined.some((t) => t.includes("Checkout.Example.com")), `host underlined: ${underlined}`);
  const items = await page.$$eval("#problems li", (lis) => lis.map((li) => li.textContent));
  assert.ok(items.some((t) => /line 13:11/.test(t) && t.includes('spec.rules[0].host: Invalid value: "Checkout.Example.com"')), items.join("\n"));
  assert.ok(items.some((t) => /line 16:15/.test(t) && t.includes("must not contain '/../'")), items.join("\n"));
  // The problems list moves the cursor to the problem.
  await page.click("#problems li:nth-child(2) button");
  const cursorLine = await page.evaluate(() => window.playground.view.state.doc.lineAt(window.playground.view.state.selection.main.head).number);
  assert.equal(cursorLine, Number(/line (\d+)/.exec(items[1])[1]));
  // Hover shows the apiserver's message.
  await page.hover(".cm-lintRange-error >> text=Checkout.Example.com");
  await page.waitForSelector(".cm-tooltip-lint");
  assert.match(await page.textContent(".cm-tooltip-lint"), /Ingress\.networking\.k8s\.io "checkout" is invalid: spec\.rules\[0\]\.host: Invalid value/);
  await screenshot(page, "invalid-hover");

  // A field strict decoding rejects is shown at its line, with what it most likely meant.
  await pasteManifests(page, "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: typo, namespace: shop}\nspec:\n  rules:\n  - http:\n      paths:\n      - path: /\n        pathtype: Prefix\n        backend: {service: {name: web, port: {number: 80}}}\n");
  await page.waitForFunction(() => [...document.querySelectorAll("#problems li")].some((li) => li.textContent.includes("unknown field")));
  const typo = await page.$$eval("#problems li", (lis) => lis.map((li) => li.textContent));
  assert.ok(typo.some((t) => /line 9:19/.test(t) && t.includes('unknown field "spec.rules[0].http.paths[0].pathtype": did you mean "pathType"?')), typo.join("\n"));
});

test("problems are placed where a fresh reading of the text places them, after edits inside, between and at the edge of objects", async (page) => {
  // The locator shifts the ranges of objects an edit did not touch instead of searching them
  // again; here every edit is checked against a search of the whole text.
  const docs = [];
  for (let i = 0; i < 4; i++) {
    docs.push(`apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: app-${i}, namespace: shop}\nspec:\n  rules:\n  - host: h${i}.example.com\n    http:\n      paths:\n      - {path: /a${i}, pathType: Prefix, backend: {service: {name: missing-${i}, port: {number: 80}}}}\n      - path: /b${i}\n        pathType: Exact\n        backend: {service: {name: gone-${i}, port: {number: 80}}}`);
  }
  // One Service in the text: the others are then reported missing.
  docs.push("apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec:\n  ports: [{port: 80}]");
  await pasteManifests(page, `# top\n${docs.join("\n---\n")}\n`);
  const edits = [
    (text) => ({ from: text.indexOf("/a1") + 3, insert: "x" }), // inside the second object
    (text) => ({ from: 2, insert: "comment " }), // before every object
    (text) => ({ from: text.indexOf("---"), insert: "# between\n" }), // between two documents
    (text) => ({ from: text.indexOf("}}}", text.indexOf("gone-2")) + 3, insert: "\n      - {path: /c, pathType: Prefix, backend: {service: {name: new, port: {number: 80}}}}" }), // at an object's end
    (text) => ({ from: text.indexOf("/b0"), to: text.indexOf("/b0") + 3, insert: "/deleted/longer" }), // a replacement
    (text) => ({ from: text.indexOf("missing-1") + 4, insert: "x" }), // inside an underlined name: its message changes
    (text) => { // as long as what it replaces, and the field moves inside its object
      const from = text.indexOf("{name: missing-3, port: {number: 80}}");
      return { from, to: from + 37, insert: "{port: {number: 80}, name: missing-3}" };
    },
    (text) => ({ from: text.indexOf("apiVersion", text.indexOf("app-2") - 80), to: text.indexOf("spec", text.indexOf("app-2")), insert: "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: app-2, namespace: shop}\n" }),
    (text) => ({ from: text.length, insert: "---\napiVersion: v1\nkind: Service\nmetadata: {name: extra, namespace: shop}\n" }), // a new document at the end
  ];
  for (const [i, edit] of edits.entries()) {
    const [incremental, fresh] = await page.evaluate(async (source) => {
      const { view } = window.playground;
      view.dispatch({ changes: eval(source)(view.state.doc.toString()), userEvent: "input.type" });
      await window.playground.settled();
      const incremental = window.playground.problems();
      // The editor shows what was placed (kept from before when only moved, else set anew).
      const placed = incremental.map(({ from, to, severity }) => [from, to, severity]).sort().join(";");
      const shown = window.playground.shownProblems().map(({ from, to, severity }) => [from, to, severity]).sort().join(";");
      if (placed !== shown) throw new Error(`the editor shows other problems than those placed:\n${shown}\n${placed}`);
      const messages = window.playground.shownProblems().map((p) => p.message).sort().join("\n");
      const titles = incremental.map((p) => p.title).sort().join("\n");
      if (!titles.split("\n").every((t) => messages.includes(t))) throw new Error(`the editor's messages are not the problems':\n${messages}`);
      // The text emptied, then typed back: no range of before can be kept, every object is searched.
      const text = view.state.doc.toString();
      view.dispatch({ changes: { from: 0, to: text.length, insert: "" } });
      await window.playground.settled();
      view.dispatch({ changes: { from: 0, insert: text } });
      await window.playground.settled();
      return [incremental, window.playground.problems()];
    }, edit.toString());
    assert.ok(fresh.length >= 8, `edit ${i}: the missing Services are problems (${fresh.length})`);
    assert.deepEqual(incremental, fresh, `edit ${i}: ${edit}`);
  }
});

test("the table redrawn block by block equals the table drawn whole, after each edit", async (page) => {
  const ingress = (i, paths) => `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: app-${i}, namespace: shop}\nspec:\n  rules:\n  - host: h${i}.example.com\n    http:\n      paths:\n${paths.map((p) => `      - {path: ${p}, pathType: Prefix, backend: {service: {name: web-${i}, port: {number: 80}}}}`).join("\n")}`;
  await pasteManifests(page, [ingress(0, ["/a", "/b"]), ingress(1, ["/c"]), ingress(2, ["/d", "/e"])].join("\n---\n") + "\n");
  const edits = [
    (text) => ({ from: text.indexOf("/c") + 2, insert: "x" }), // a path of the second host
    (text) => ({ from: text.length, insert: "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: fallback, namespace: shop}\nspec:\n  defaultBackend: {service: {name: web-0, port: {number: 80}}}\n" }), // what follows the hosts
    (text) => ({ from: text.indexOf("h2.example.com"), to: text.indexOf("h2.example.com") + 2, insert: "a2" }), // a host renamed: the order changes
    (text) => ({ from: text.indexOf("/e") + 2, insert: "/deeper" }),
  ];
  for (const [i, edit] of edits.entries()) {
    const [incremental, whole] = await page.evaluate(async (source) => {
      const { view } = window.playground;
      const table = document.getElementById("table");
      view.dispatch({ changes: eval(source)(view.state.doc.toString()), userEvent: "input.type" });
      await window.playground.settled();
      const incremental = table.innerHTML;
      const text = view.state.doc.toString();
      view.dispatch({ changes: { from: 0, to: text.length, insert: "" } });
      await window.playground.settled();
      view.dispatch({ changes: { from: 0, insert: text } });
      await window.playground.settled();
      return [incremental, table.innerHTML];
    }, edit.toString());
    assert.match(whole, /host-table/, `edit ${i}: a table is drawn`);
    assert.equal(incremental, whole, `edit ${i}: ${edit}`);
  }
});

test("a shared link brings the whole state back", async (page, { browser, url }) => {
  await grantClipboard(page);
  await loadExample(page, "ingress-class");
  await page.fill("#ingress-class", "traefik");
  await typeUrl(page, "https://apps.example.com/b/1");
  await page.fill("#requests", "https://apps.example.com/a\nPOST https://apps.example.com/b");
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n# edited");
  await page.selectOption("#implementation-specific", "exact");
  await page.click("#share");
  await page.waitForFunction(() => /Link copied|address bar/.test(document.getElementById("share-note").textContent));
  const link = await page.evaluate(() => location.href);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, "the link is on the clipboard");
  const before = { text: await editorText(page), decision: await decision(page) };
  assert.equal(before.decision.backend, "app-b:80");

  const other = await openPage(browser, url);
  await other.goto(link);
  await other.waitForSelector("body[data-ready]");
  await other.waitForFunction((text) => window.playground.view.state.doc.toString() === text, before.text);
  assert.equal(await other.inputValue("#ingress-class"), "traefik");
  assert.equal(await other.inputValue("#implementation-specific"), "exact");
  assert.equal(await other.inputValue("#url"), "https://apps.example.com/b/1");
  assert.equal(await other.inputValue("#requests"), "https://apps.example.com/a\nPOST https://apps.example.com/b");
  assert.deepEqual(await decision(other), before.decision);
  assert.deepEqual(other.errors, []);
  await other.context().close();
});

test("exported tests pass in the CLI, and import back", async (page) => {
  const dir = await mkdtemp(join(tmpdir(), "playground-"));
  for (const id of ["merged-conflict", "ingress-class", "docs-path-matching"]) {
    await loadExample(page, id);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
    const testsFile = join(dir, `${id}-tests.yaml`);
    await download.saveAs(testsFile);
    const manifests = join(dir, `${id}.yaml`);
    await writeFile(manifests, await editorText(page));
    const out = execFileSync(cli, ["test", "-f", manifests, testsFile], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }); // throws on failure
    const exported = await readFile(testsFile, "utf8");
    assert.equal((exported.match(/^\s*- name:/gm) ?? []).length, (await page.inputValue("#requests")).split("\n").filter(Boolean).length, out);

    await page.fill("#requests", "");
    await page.setInputFiles("#import", testsFile);
    await page.waitForFunction(() => document.querySelector("#requests").value.length > 0);
    const verdicts = await page.$$eval(".results tbody tr", (trs) => trs.map((tr) => tr.lastElementChild.textContent));
    assert.ok(verdicts.length > 0 && verdicts.every((v) => v === "as expected"), verdicts.join(", "));
  }
});

const CANARY = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: app, namespace: web}
spec:
  ingressClassName: nginx
  rules:
  - host: canary.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: app-v1, port: {number: 80}}}}]}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: app-canary
  namespace: web
  annotations:
    nginx.ingress.kubernetes.io/canary: "true"
    nginx.ingress.kubernetes.io/canary-by-header: X-Canary
spec:
  ingressClassName: nginx
  rules:
  - host: canary.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: app-v2, port: {number: 80}}}}]}
`;

/** Exports the page's requests as a tests file in `dir`; runs it with the CLI over the page's manifests (throws on a failure). */
async function exportAndRun(page, dir, id) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  const testsFile = join(dir, `${id}-tests.yaml`);
  await download.saveAs(testsFile);
  const manifests = join(dir, `${id}.yaml`);
  await writeFile(manifests, await editorText(page));
  const report = JSON.parse(execFileSync(cli, ["test", "-f", manifests, testsFile, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  return { testsFile, manifests, report };
}

test("exported tests keep methods and headers: a header canary replays in the CLI", async (page) => {
  const dir = await mkdtemp(join(tmpdir(), "playground-"));
  await pasteManifests(page, CANARY);
  await page.selectOption("#profile", "ingress-nginx");
  await page.click("details.headers summary");
  await page.fill("#headers", "X-Canary: always");
  await page.fill("#requests", "POST https://canary.example.com/\nGET canary.example.com /x");
  await page.waitForFunction(() => document.querySelectorAll(".results tbody tr").length === 2);
  const rows = await page.$$eval(".results tbody tr", (trs) => trs.map((tr) => tr.querySelectorAll("td")[2]?.textContent.trim()));
  assert.deepEqual(rows, ["app-v2:80", "app-v2:80"], "the page's headers go with every request");
  const { testsFile, report } = await exportAndRun(page, dir, "canary");
  assert.deepEqual([report.passed, report.failed], [2, 0]);
  assert.deepEqual(report.results.map((r) => r.actual.label), ["app-v2:80", "app-v2:80"]);
  const text = await readFile(testsFile, "utf8");
  assert.match(text, /method: POST/);
  assert.match(text, /X-Canary: always/);
  // Import restores the requests and the headers.
  await page.fill("#requests", "");
  await page.fill("#headers", "");
  await page.setInputFiles("#import", testsFile);
  await page.waitForFunction(() => document.querySelector("#requests").value.length > 0);
  assert.equal(await page.inputValue("#requests"), "POST https://canary.example.com/\nGET canary.example.com /x");
  assert.equal(await page.inputValue("#headers"), "X-Canary: always");
});

test("any requests the page holds, exported, run in the CLI with the page's answers", async (page) => {
  const dir = await mkdtemp(join(tmpdir(), "playground-"));
  await loadExample(page, "merged-conflict");
  // A seeded generator of request lines: methods, URLs and host+path forms, odd paths.
  let seed = 7;
  const next = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const pick = (list) => list[next(list.length)];
  const hosts = ["apps.example.com", "APPS.example.com:8443", "other.example.org", "apps.example.com."];
  const paths = ["/", "/a", "/a/", "/b/1", "/B", "//a", "/a/./b", "/a%2Fb", "/a?x=1", "/a#f", "/%E2%9C%93"];
  for (let round = 0; round < 4; round++) {
    const lines = Array.from({ length: 12 }, () => {
      const method = pick(["", "GET ", "POST ", "DELETE "]);
      const path = pick(paths);
      return next(2) ? `${method}${pick(["http", "https"])}://${pick(hosts)}${path}` : `${method}${pick(hosts)} ${path}`;
    });
    await page.fill("#requests", lines.join("\n"));
    await page.waitForFunction((n) => document.querySelectorAll(".results tbody tr").length === n, lines.length);
    const shown = await page.$$eval(".results tbody tr", (trs) => trs.map((tr) => tr.querySelectorAll("td")[2]?.textContent.trim()));
    const { report } = await exportAndRun(page, dir, `random-${round}`);
    assert.equal(report.failed, 0, JSON.stringify(report.results.filter((r) => !r.passed)));
    assert.deepEqual(report.results.map((r) => r.actual.label), shown, lines.join("\n"));
  }
});

test("a tests file the CLI writes (diff --tests) imports into the page unchanged", async (page) => {
  const dir = await mkdtemp(join(tmpdir(), "playground-"));
  const manifests = join(dir, "canary.yaml");
  await writeFile(manifests, CANARY);
  const pinned = join(dir, "pinned.yaml");
  try {
    execFileSync(cli, ["diff", "-f", manifests, "--tests", pinned], { stdio: "ignore" });
  } catch (e) {
    if (e.status !== 1) throw e; // 1: the profiles differ, as they do here
  }
  await pasteManifests(page, CANARY);
  await page.fill("#requests", ""); // filled again by the import (the example's requests are there before)
  await page.setInputFiles("#import", pinned);
  await page.waitForFunction(() => document.querySelector("#requests").value.length > 0);
  assert.equal(await page.inputValue("#profile"), "ingress-nginx");
  await page.waitForFunction(() => document.querySelectorAll(".results tbody tr").length > 0);
  const verdicts = await page.$$eval(".results tbody tr", (trs) => trs.map((tr) => tr.lastElementChild.textContent));
  const count = (await readFile(pinned, "utf8")).match(/^- name:/gm).length;
  assert.equal(verdicts.length, count);
  assert.ok(verdicts.every((v) => v === "as expected"), verdicts.join(", "));
  // Exported again, the file runs in the CLI.
  const { report } = await exportAndRun(page, dir, "pinned-again");
  assert.deepEqual([report.passed, report.failed], [count, 0]);
});

test("status panel: kubectl columns, the Service's status and the PUT request", async (page) => {
  await loadExample(page, "loadbalancer-status");
  assert.equal(await page.inputValue("#publish-service"), "ingress-nginx/ingress-nginx-controller");
  const head = await page.$$eval(".kubectl th", (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(head, ["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS"]);
  const row = await page.$$eval(".kubectl tbody tr td", (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(row, ["shop", "<none>", "shop.example.com", "203.0.113.10", "80"]);
  assert.equal(await page.textContent(".service .lb"), "provisioned");
  assert.match(await page.textContent(".put summary"), /198\.51\.100\.7 → 203\.0\.113\.10/); // the stale address replaced
  await page.click(".put summary");
  const put = await page.textContent(".put pre");
  assert.match(put, /^PUT \/apis\/networking\.k8s\.io\/v1\/namespaces\/shop\/ingresses\/shop\/status/);
  assert.match(put, /"ip": "203\.0\.113\.10"/);
  await screenshot(page, "status");

  await page.fill("#publish-service", "ingress-nginx/pending-lb");
  assert.equal(await page.textContent(".service .lb"), "pending");
  assert.match(await page.textContent("#status"), /No address/);
});

test("keyboard, names and focus", async (page) => {
  assert.equal(await page.getByRole("textbox", { name: "Manifests" }).count(), 1);
  assert.equal(await page.getByRole("status", { name: "Decision" }).count(), 1);
  assert.equal(await page.getByLabel("Request URL").count(), 1);
  // From the top of the page, the keyboard reaches the URL field and typing routes.
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.className), "skip");
  await page.keyboard.press("Enter");
  let guard = 0;
  while ((await page.evaluate(() => document.activeElement.id)) !== "url" && guard++ < 10) await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "url");
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(outline, "solid", "focus is visible");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("https://trailing-slash.example.com/foo");
  // The editor takes Tab for indenting; Escape then Tab leaves it.
  await page.focus(".cm-content");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => Boolean(document.activeElement.closest(".cm-editor"))), false, "Escape, Tab leaves the editor");
  await page.focus("#url");
  assert.equal((await decision(page)).backend, "foo-slash:80");
  await screenshot(page, "keyboard-focus");
});

test("no layout jumps while typing", async (page) => {
  await loadExample(page, "merged-conflict");
  const boxes = () => page.evaluate(() => ["#url", "#decision", "#flow", ".editor"].map((s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.height]; }));
  const at = await boxes();
  for (const url of ["https://shop.example.com/api/orders", "https://shop.example.com/apix", "https://nowhere.example.org/", "https://shop.example.com/api/v2/x"]) {
    await typeUrl(page, url);
    const now = await boxes();
    assert.deepEqual(now.slice(0, 2), at.slice(0, 2), `URL field and decision stay put (${url})`);
    assert.equal(now[2][0], at[2][0], "the picture starts where it did");
    assert.deepEqual(now[3], at[3], "the editor stays put");
  }
});

const galleryFile = (name) => join(webDir, "gallery", name);

/** The gRPC call the request box holds, as the CLI takes it: `POST URL`, and the headers (the content type, the metadata). */
async function grpcCallLine(page) {
  const [host, service, method, metadata] = await Promise.all(["#grpc-host", "#grpc-service", "#grpc-method", "#grpc-metadata"].map((id) => page.inputValue(id)));
  return [`POST http://${host}/${service}/${method}`, ["content-type: application/grpc", metadata].filter(Boolean).join("\n")];
}

/** Fills the gRPC call's fields as a person types them (one input event per field). */
async function fillGrpcCall(page, fields) {
  for (const [key, value] of Object.entries(fields)) await page.fill(`#grpc-${key}`, value);
}

test("GRPCRoute: the request box's gRPC call (service, method, metadata) routes as the CLI says, and a method no rule names is UNIMPLEMENTED", async (page) => {
  const file = galleryFile("gateway-grpc.yaml");
  await loadExample(page, "gateway-grpc");
  // Preset from the example's GRPCRoute: its hostname and first rule's service and method.
  assert.ok(await page.isChecked("#kind-grpc"));
  assert.ok(await page.isHidden("#url"));
  assert.deepEqual(await grpcCallLine(page), ["POST http://grpc.example.com/echo.v1.Echo/Echo", "content-type: application/grpc"]);
  const echo = await decision(page);
  assert.equal(echo.backend, "apps/echo-v1:8080");
  assert.match(echo.matched, /GRPCRoute apps\/echo · rules\[0\]/);
  assert.doesNotMatch(echo.via, /gRPC/, "a forwarded call has no gRPC status of the proxy's");
  // The picture: the call, and the GRPCRoute's rules as candidates.
  const flow = await page.textContent("#flow");
  assert.match(flow, /gRPC echo\.v1\.Echo\/Echo/);
  assert.match(flow, /POST grpc\.example\.com\/echo\.v1\.Echo\/Echo/);
  assert.match(flow, /GRPCRoute apps\/echo rules\[1\]\.matches\[0\]/);
  // The gRPC fields are named and reachable as the rest of the request box is.
  await page.addScriptTag({ content: axeSource });
  const axe = await page.evaluate(() => window.axe.run("#request", { resultTypes: ["violations"] }));
  assert.deepEqual(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), []);
  // More metadata matches win: the canary rule.
  await fillGrpcCall(page, { metadata: "x-canary: true" });
  await page.waitForFunction(() => document.getElementById("backend").textContent.trim() === "apps/echo-v2:8080");
  const [canaryLine, canaryHeaders] = await grpcCallLine(page);
  assert.equal(canaryHeaders, "content-type: application/grpc\nx-canary: true");
  assert.equal((await decision(page)).backend, cliRoute(file, canaryLine, {}, canaryHeaders).label);
  assert.match(await page.textContent("#flow"), /x-canary: true/);
  await screenshot(page, "grpc-call");
  // Another service's method a rule names, then one no rule names: 404, which a gRPC client reads as UNIMPLEMENTED.
  await fillGrpcCall(page, { service: "grpc.health.v1.Health", method: "Check", metadata: "" });
  await page.waitForFunction(() => document.getElementById("backend").textContent.trim() === "apps/health:9090");
  await fillGrpcCall(page, { method: "Watch" });
  await page.waitForFunction(() => document.getElementById("via").textContent.includes("gRPC"));
  const missing = cliRoute(file, (await grpcCallLine(page))[0], {}, "content-type: application/grpc");
  assert.equal(missing.grpcStatusName, "UNIMPLEMENTED");
  const shown = await decision(page);
  assert.equal(shown.backend, "404");
  assert.match(shown.via, /HTTP 404 · gRPC UNIMPLEMENTED \(12\)$/);
  assert.match(await page.textContent("#flow"), /gRPC UNIMPLEMENTED \(12\)/);
  // A call with no method: the package refuses it, and the page says so.
  await fillGrpcCall(page, { method: "" });
  await page.waitForFunction(() => document.getElementById("decision").classList.contains("failed"));
  // The same calls written out in the HTTP request mode: POST, the gRPC content type among the headers.
  await page.check("#kind-http");
  assert.ok(await page.isHidden("#grpc-service"));
  assert.equal(await page.inputValue("#method"), "POST");
  assert.equal(await page.inputValue("#headers"), "content-type: application/grpc");
  assert.equal((await decision(page)).backend, "apps/echo-v1:8080");
  await typeUrl(page, "http://grpc.example.com/grpc.health.v1.Health/Watch");
  await page.waitForFunction(() => document.getElementById("via").textContent.includes("gRPC"));
  assert.match((await decision(page)).via, /HTTP 404 · gRPC UNIMPLEMENTED \(12\)$/);
  assert.match(await page.textContent("#table"), /method grpc\.health\.v1\.Health\/Check/);
  const status = await page.textContent('.gw-object[data-kind="GRPCRoute"][data-name="apps/echo"]');
  assert.match(status, /Accepted=True Accepted/);
});

test("a shared link keeps the gRPC call: service, method, metadata", async (page, { browser, url }) => {
  await grantClipboard(page);
  await loadExample(page, "gateway-grpc");
  await fillGrpcCall(page, { service: "echo.v1.Echo", method: "Echo", metadata: "x-canary: true\nx-user: ada" });
  await page.waitForFunction(() => document.getElementById("backend").textContent.trim() === "apps/echo-v2:8080");
  await page.click("#share");
  await page.waitForFunction(() => /Link copied|address bar/.test(document.getElementById("share-note").textContent));
  const link = await page.evaluate(() => location.href);
  const before = { call: await grpcCallLine(page), decision: await decision(page) };

  const other = await openPage(browser, url);
  await other.goto(link);
  await other.waitForSelector("body[data-ready]");
  await other.waitForFunction(() => document.getElementById("backend").textContent.trim() === "apps/echo-v2:8080");
  assert.ok(await other.isChecked("#kind-grpc"));
  assert.equal(await other.inputValue("#grpc-metadata"), "x-canary: true\nx-user: ada");
  assert.deepEqual(await grpcCallLine(other), before.call);
  assert.deepEqual(await decision(other), before.decision);
  // Switched to the HTTP request, the link says so too.
  await other.check("#kind-http");
  await other.click("#share");
  await other.waitForFunction((old) => location.href !== old, link);
  const third = await openPage(browser, url);
  await third.goto(await other.evaluate(() => location.href));
  await third.waitForSelector("body[data-ready]");
  await third.waitForFunction(() => window.playground.state.requestKind === "http" && document.getElementById("backend").textContent.trim() === "apps/echo-v1:8080");
  assert.ok(await third.isChecked("#kind-http"));
  assert.equal(await third.inputValue("#grpc-service"), "echo.v1.Echo", "the gRPC fields are kept for the next switch");
  assert.deepEqual([...other.errors, ...third.errors], []);
  await other.context().close();
  await third.context().close();
});

test("Gateway API: the decision for a method and headers, and why every other candidate lost", async (page) => {
  const file = galleryFile("gateway-precedence.yaml");
  await loadExample(page, "gateway-precedence");
  const url = "http://api.example.com/api/orders";
  assert.equal((await decision(page)).backend, cliRoute(file, url).label);
  assert.equal((await decision(page)).backend, "shop/api:8080");
  assert.match((await decision(page)).matched, /Gateway infra\/public · listener http · HTTPRoute shop\/api · rules\[1\] \(api\)/);
  assert.ok((await matchedLines(page)).some((l) => l.includes("name: api")), "the rule is highlighted");
  assert.match(await page.textContent("#table tr.winner"), /rules\[1\]/);
  // Every candidate is listed with its outcome: the winner, those that lost on precedence, those that did not match.
  const rows = await page.$$eval("#flow .candidates tbody tr", (trs) => trs.map((tr) => [tr.className, tr.textContent]));
  assert.equal(rows.filter(([c]) => c === "winner").length, 1);
  assert.ok(rows.some(([c, t]) => c === "lost" && t.includes("(everything)")), JSON.stringify(rows));
  assert.ok(rows.some(([c, t]) => c === "nomatch" && t.includes("(writes)") && /method/i.test(t)), JSON.stringify(rows));
  assert.ok(rows.some(([c, t]) => c === "nomatch" && t.includes("(canary)") && /x-env/i.test(t)), JSON.stringify(rows));
  assert.match(await page.textContent("#flow .listeners"), /chosen/);

  await page.selectOption("#method", "POST");
  assert.equal((await decision(page)).backend, cliRoute(file, `POST ${url}`).label);
  assert.equal((await decision(page)).backend, "shop/api-writer:8080");
  await page.selectOption("#method", "GET");
  await page.click("details.headers summary");
  await page.fill("#headers", "x-env: canary");
  assert.equal((await decision(page)).backend, cliRoute(file, url, {}, "x-env: canary").label);
  assert.equal((await decision(page)).backend, "shop/api-canary:8080");
  await page.fill("#headers", "");
  await typeUrl(page, `${url}?v=2`);
  assert.equal((await decision(page)).backend, "shop/api-v2:8080");
  await screenshot(page, "gateway-precedence");
  // The requests list, exported with its methods, replays in the CLI through the Gateway.
  const { report, testsFile } = await exportAndRun(page, await mkdtemp(join(tmpdir(), "playground-")), "gateway-precedence");
  assert.deepEqual([report.passed, report.failed], [6, 0], JSON.stringify(report).slice(0, 300));
  assert.match(await readFile(testsFile, "utf8"), /method: POST/);

  // Filters: what the upstream receives, and a redirect.
  await loadExample(page, "gateway-redirects-rewrites");
  const rewrite = cliRoute(galleryFile("gateway-redirects-rewrites.yaml"), "http://www.example.com/old/report?id=7");
  const upstream = await page.textContent("#upstream-request code");
  assert.ok(upstream.includes(`Host ${rewrite.upstream.host} · ${rewrite.upstream.path}`), upstream);
  assert.match(upstream, /\/new\/report\?id=7/);
  await typeUrl(page, "http://www.example.com/account/settings");
  assert.equal((await decision(page)).backend, cliRoute(galleryFile("gateway-redirects-rewrites.yaml"), "http://www.example.com/account/settings").label);
  assert.match((await decision(page)).backend, /^redirect 301 https:\/\/www\.example\.com\/account\/settings/);

  // The most specific listener, and a route its listener does not allow.
  await loadExample(page, "gateway-listeners");
  const listeners = await page.$$eval("#flow .listeners tbody tr", (trs) => trs.map((tr) => tr.textContent));
  assert.ok(listeners.some((t) => t.includes("chosen") && t.includes("shop")), listeners.join("\n"));
  assert.ok(listeners.some((t) => t.includes("wildcard") && !t.includes("chosen")), listeners.join("\n"));
  // In the package's words (the core writes them for every home).
  assert.match(await page.textContent("#flow .candidates"), /web\/blocked[\s\S]*allowedRoutes\.namespaces \(from: Same\) leaves the route's namespace out/);
});

test("Gateway API: the Gateway selector picks among several Gateways", async (page, { browser, url }) => {
  const dir = join(repo, "examples/gateway/manifests");
  const files = ["gateways.yaml", "routes.yaml", "services.yaml"].map((f) => join(dir, f));
  const text = (await Promise.all(files.map((f) => readFile(f, "utf8")))).join("---\n");
  const all = join(await mkdtemp(join(tmpdir(), "playground-")), "gateway.yaml");
  await writeFile(all, text);
  await pasteManifests(page, text);
  await page.waitForSelector("#gateway-field:not([hidden])");
  const options = await page.$$eval("#gateway option", (os) => os.map((o) => o.value));
  assert.deepEqual(options, ["", "infra/public", "infra/staging"]);
  await typeUrl(page, "http://shop.example.com/cart");
  // Several Gateways and no Ingress: the package asks which one.
  assert.match((await decision(page)).matched, /several Gateways \(infra\/public, infra\/staging\)/);
  for (const gateway of ["infra/public", "infra/staging"]) {
    await page.selectOption("#gateway", gateway);
    const expected = cliRoute(all, "http://shop.example.com/cart", { gateway });
    assert.equal((await decision(page)).backend, expected.label, gateway);
  }
  assert.equal((await decision(page)).backend, "shop/cart-staging:8080");
  // A shared link keeps the chosen Gateway.
  await page.click("#share");
  await page.waitForFunction(() => /Link copied|address bar/.test(document.getElementById("share-note").textContent));
  const other = await openPage(browser, url);
  await other.goto(await page.evaluate(() => location.href));
  await other.waitForSelector("body[data-ready]");
  await other.waitForFunction(() => document.getElementById("gateway").value === "infra/staging");
  assert.equal((await decision(other)).backend, "shop/cart-staging:8080");
  assert.deepEqual(other.errors, []);
  await other.context().close();
});

test("Gateway API status: each route's parents and each listener's attached routes", async (page) => {
  await loadExample(page, "gateway-listeners");
  await page.waitForSelector("#gateway-status .gw-object");
  const blocked = await page.textContent('.gw-object[data-kind="HTTPRoute"][data-name="web/blocked"]');
  assert.match(blocked, /Accepted=False NotAllowedByListeners/);
  assert.match(await page.textContent('.gw-object[data-kind="HTTPRoute"][data-name="web/sites"]'), /Accepted=True Accepted/);
  const attached = await page.$$eval('.gw-object[data-kind="Gateway"] tbody tr', (trs) => trs.map((tr) => [tr.querySelector("code").textContent, tr.querySelector(".attached").textContent]));
  assert.deepEqual(attached, [["wildcard", "1"], ["shop", "1"], ["internal", "1"]]);
  await screenshotOf(page, "#gateway-status", "gateway-status");

  await loadExample(page, "gateway-reference-grant");
  assert.equal((await decision(page)).backend, "500");
  assert.match(await page.textContent('.gw-object[data-kind="HTTPRoute"][data-name="shop/shop"]'), /ResolvedRefs=False RefNotPermitted/);
});

test("migration view: the differences by cause, a chosen row loads its request, the tests download", async (page) => {
  const file = galleryFile("migration-ingress-nginx.yaml");
  await loadExample(page, "migration-ingress-nginx");
  await page.waitForSelector("#migration-pane:not([hidden]) .cause");
  const causes = await page.$$eval("#migration .cause", (cs) => cs.map((c) => c.dataset.cause));
  assert.ok(causes.includes("rewrite-capture-dropped"), causes.join(", "));
  const cause = page.locator('.cause[data-cause="rewrite-capture-dropped"]');
  assert.match(await cause.locator(".advice").textContent(), /\S/);
  // Choosing a row loads its request; each side's button routes it through that side.
  const first = cause.locator("button.load-request").first();
  const request = (await first.textContent()).trim();
  await first.click();
  const [method, url] = request.split(" ");
  assert.equal(await page.inputValue("#url"), url);
  assert.equal(await page.inputValue("#method"), method);
  assert.match((await decision(page)).matched, /^Ingress shop\//);
  await cause.locator('button[data-side="gateway"]').first().click();
  await page.waitForFunction(() => document.getElementById("gateway").value === "infra/public");
  assert.equal(await page.inputValue("#url"), url);
  const gateway = cliRoute(file, url, { gateway: "infra/public" });
  assert.equal((await decision(page)).backend, gateway.label);
  assert.match((await decision(page)).matched, /HTTPRoute shop\/shop/);
  await page.locator('#migration button[data-side="ingress"]').first().click();
  await page.waitForFunction(() => document.getElementById("gateway").value === "");
  // The agreed answers, as a tests file the CLI runs.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#migration-tests")]);
  const dir = await mkdtemp(join(tmpdir(), "playground-"));
  const testsFile = join(dir, "gateway-api-tests.yaml");
  await download.saveAs(testsFile);
  const report = JSON.parse(execFileSync(cli, ["test", "-f", file, testsFile, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  assert.ok(report.passed > 0 && report.failed === 0, JSON.stringify(report).slice(0, 400));
  await screenshotOf(page, "#migration-pane", "migration");
  // The migration runs when the manifests change, not per URL keystroke.
  const before = await page.evaluate(() => window.playground.timings.migrations);
  await typeUrl(page, "http://shop.example.com/x");
  assert.equal(await page.evaluate(() => window.playground.timings.migrations), before);
});

/** `ingress-router migrate` over a file: its stdout (the YAML) and exit code (1 when answers differ). */
function cliMigrate(file, args = []) {
  const r = spawnSync(cli, ["migrate", "-f", file, ...args], { encoding: "utf8" });
  return { yaml: r.stdout, status: r.status };
}

test("migration panel: Convert writes the Gateway API objects as the CLI's migrate does, with the proof, the notes, Copy and Download", async (page) => {
  await grantClipboard(page);
  const file = galleryFile("migration-ingress-nginx.yaml");
  await loadExample(page, "migration-ingress-nginx");
  await page.waitForSelector("#migration-pane:not([hidden]) #convert");
  await page.click("#convert");
  await page.waitForSelector("#conversion:not([hidden]) pre.yaml");
  const yaml = await page.textContent("#conversion pre.yaml");
  assert.match(yaml, /^kind: Gateway$/m);
  assert.match(yaml, /^kind: HTTPRoute$/m);
  assert.equal(yaml, cliMigrate(file).yaml, "the YAML is the CLI's migrate output");
  // The proof: its summary, its causes (each with the notes that explain it).
  const summary = await page.textContent("#conversion .conversion-proof .summary");
  assert.match(summary, /\d+ requests tried from the Ingresses/);
  const causes = await page.$$eval("#conversion .cause", (cs) => cs.map((c) => c.dataset.cause));
  // No default certificate: the hosts without tls differ over HTTPS.
  assert.ok(causes.includes("https-default-certificate"), causes.join(", "));
  assert.ok(await page.locator('#conversion .cause[data-cause="https-default-certificate"] .explained-by li').count() > 0, "the cause is tied to a note");
  // The notes: per Ingress, what, outcome (in words, the code beside), detail.
  const rows = await page.$$eval("#conversion .notes-table tr.note-row", (trs) => trs.map((tr) => [tr.closest("tbody").dataset.ingress, ...[...tr.cells].map((td) => td.textContent.trim())]));
  assert.ok(rows.some(([ingress, what, outcome]) => ingress === "shop/shop" && what.includes("rewrite-target") && /^cannot be expressed notExpressible$/.test(outcome)), JSON.stringify(rows));
  // Copy and Download give the YAML shown.
  await page.click('#conversion button[data-action="copy"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), yaml);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('#conversion button[data-action="download"]')]);
  assert.equal(download.suggestedFilename(), "gateway-api.yaml");
  const dir = await mkdtemp(join(tmpdir(), "playground-convert-"));
  await download.saveAs(join(dir, "gateway-api.yaml"));
  assert.equal(await readFile(join(dir, "gateway-api.yaml"), "utf8"), yaml);
  await screenshotOf(page, "#migration-pane", "convert");
  await page.addScriptTag({ content: axeSource });
  const axe = await page.evaluate(() => window.axe.run(document.getElementById("migration-pane"), { resultTypes: ["violations"] }));
  assert.deepEqual(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")}`), [], "axe on the conversion");

  // With the default certificate, the hosts without tls are served over HTTPS as ingress-nginx served them.
  await page.fill("#default-certificate", "ingress-nginx/default-tls");
  assert.ok(await page.isHidden("#conversion"), "a conversion of other options is not shown");
  await page.click("#convert");
  await page.waitForSelector("#conversion:not([hidden]) pre.yaml");
  const withCertificate = await page.textContent("#conversion pre.yaml");
  assert.equal(withCertificate, cliMigrate(file, ["--default-certificate", "ingress-nginx/default-tls"]).yaml);
  assert.equal(await page.locator('#conversion .cause[data-cause="https-default-certificate"]').count(), 0);

  // An example with Ingresses and no HTTPRoute converts too; an edit hides the conversion made before it.
  await loadExample(page, "tls");
  assert.ok(await page.isVisible("#convert"), "Convert is offered for Ingresses alone");
  assert.ok(await page.isHidden("#migration-compare"), "no HTTPRoutes to compare");
  await page.click("#convert");
  await page.waitForSelector("#conversion:not([hidden]) pre.yaml");
  assert.equal(await page.textContent("#conversion pre.yaml"), cliMigrate(galleryFile("tls.yaml")).yaml);
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText("\n# a comment");
  await page.waitForFunction(() => document.getElementById("conversion").hidden);
  assert.match(await page.textContent("#convert-note"), /convert again/);
});

// ---- the project's Gateway API cases (tests/cases/gateway.json) and migration pairs, through the page

const gatewayCases = JSON.parse(await readFile(join(repo, "tests/cases/gateway.json"), "utf8")).cases;

/**
 * Whether the page can say a case's request and options: a Gateway to route through (the "Route
 * through" selector) but no core-only option (regexOrder, checkServices), and one value per header
 * name as the page's `Name: value` lines hold them.
 */
function pageCanExpress(c) {
  if (!Object.keys(c.options ?? {}).every((k) => k === "gateway")) return false;
  const names = (c.request.headers ?? []).map(([n]) => n.toLowerCase());
  return new Set(names).size === names.length && (c.request.headers ?? []).every(([n, v]) => n === n.trim() && v === v.trim() && !/[\n:]/.test(n) && !v.includes("\n"));
}

/** `ingress-router route --json` for a case over `file`; `{refused}` when the CLI refuses it (a non-zero exit). */
async function cliCase(file, c) {
  const args = ["route", "--json", "-f", file, c.request.url, "-X", c.request.method ?? "GET"];
  for (const [name, value] of c.request.headers ?? []) args.push("-H", `${name}: ${value}`);
  if (c.options?.gateway) args.push("--gateway", c.options.gateway);
  try {
    return JSON.parse((await execFileAsync(cli, args, { encoding: "utf8" })).stdout);
  } catch (e) {
    if (typeof e.code !== "number" || e.code === 0) throw e;
    return { refused: String(e.stderr).trim() };
  }
}

/** What the decision region shows (read in the page). */
function readDecision() {
  const upstream = document.getElementById("upstream-request");
  return {
    failed: document.getElementById("decision").classList.contains("failed"),
    backend: document.getElementById("backend").textContent.trim(),
    via: document.getElementById("via").textContent.trim(),
    matched: document.getElementById("matched").textContent.trim(),
    upstream: upstream.hidden ? null : upstream.querySelector("code").textContent,
    highlighted: document.querySelectorAll(".cm-line[data-matched-rule]").length,
  };
}

/**
 * Enters a case in the page in one round trip (run in the page): the text as a paste into the
 * editor, then each field's value with the event a person's input fires (`change` for the
 * selects, `input` for the fields), so the page's own handlers route it; then reads the decision.
 */
async function enterInPage({ text, gateway, method, headers, url }) {
  const { view } = window.playground;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: "input.paste" });
  await window.playground.settled(); // the package's second module, the first time
  for (const [id, value, event] of [["gateway", gateway, "change"], ["method", method, "change"], ["headers", headers, "input"], ["url", url, "input"]]) {
    const el = document.getElementById(id);
    if (el.value === value) continue;
    el.value = value;
    if (el.value !== value) throw new Error(`#${id} has no ${value}`);
    el.dispatchEvent(new Event(event));
  }
  return window.readDecision(); // readDecision, put in the page by the test
}

/** A case's request as the page's fields hold it. */
function caseFields(c) {
  return {
    text: JSON.stringify(c.objects), // the same text in the editor and in the CLI's file: a JSON array
    gateway: c.options?.gateway ?? "",
    method: c.request.method ?? "GET",
    headers: (c.request.headers ?? []).map(([name, value]) => `${name}: ${value}`).join("\n"),
    url: c.request.url,
  };
}

/** Asserts the page shows the CLI's answer (`expected`, from cliCase) for case `c`; returns whether it routed. */
function assertShowsCli(c, shown, expected) {
  const where = `${c.id}: ${JSON.stringify(shown)}`;
  if (expected.refused !== undefined) {
    // The CLI refuses it (bad input, no Gateway to choose): the page shows an error, no answer.
    assert.ok(shown.failed && shown.backend === "—", `${where}; the CLI refuses it: ${expected.refused}`);
    return false;
  }
  assert.ok(!shown.failed, where);
  assert.ok("listener" in expected, `${c.id}: a Gateway API decision from the CLI`);
  // The status and the backend (or the split, or the redirect with its location).
  assert.equal(shown.backend, gatewayAnswerLabel(expected), where);
  const grpc = expected.grpcStatus != null ? ` · gRPC ${expected.grpcStatusName} (${expected.grpcStatus})` : "";
  assert.ok(shown.via.startsWith(`${expected.via} · HTTP ${expected.status}${grpc}`), `${where}: ${shown.via}`);
  if (expected.redirect) assert.ok(shown.backend.endsWith(` ${expected.redirect.location}`), where);
  // Where the answer came from: the Gateway, the listener, the route and the rule.
  for (const part of [expected.gateway && `Gateway ${expected.gateway}`, expected.listener && `listener ${expected.listener}`,
    expected.route && `${expected.routeKind ?? "HTTPRoute"} ${expected.route}`, expected.rule != null && `rules[${expected.rule}]`]) {
    if (part) assert.ok(shown.matched.includes(part), `${where}: ${part}`);
  }
  // What the upstream receives: its Host and path (and the headers the filters set).
  if (expected.upstream) {
    const headerText = expected.upstream.headers.map(([n, v]) => `${n}: ${v}`).join(", ");
    assert.equal(shown.upstream, `Host ${expected.upstream.host} · ${expected.upstream.path}${headerText ? ` · ${headerText}` : ""}`, where);
  } else {
    assert.equal(shown.upstream, null, where);
  }
  // The winning rule is highlighted in the editor.
  if (expected.route != null && expected.rule != null) assert.ok(shown.highlighted > 0, `${where}: the rule is highlighted`);
  return true;
}

test("Gateway API: every case of tests/cases/gateway.json the page can express answers in the page as the CLI does", async (page) => {
  const dir = await mkdtemp(join(tmpdir(), "playground-cases-"));
  const cases = gatewayCases.filter(pageCanExpress);
  const left = gatewayCases.filter((c) => !cases.includes(c));
  // The cases left out are those with core-only options (no CLI flag, no npm option, no field in the page).
  assert.ok(left.every((c) => Object.keys(c.options ?? {}).some((k) => k !== "gateway")), left.map((c) => c.id).join(", "));
  assert.ok(cases.length >= 140, `most cases: ${cases.length}`);
  // The CLI's answers, four at a time.
  const expected = new Map();
  const queue = cases.map((c, i) => [c, join(dir, `${i}.json`)]);
  await Promise.all(Array.from({ length: 4 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [c, file] = next;
      await writeFile(file, caseFields(c).text);
      expected.set(c, await cliCase(file, c));
    }
  }));
  // Every case, entered through the page's fields and events in one round trip each.
  await page.evaluate(`window.readDecision = ${readDecision}`);
  let routed = 0;
  for (const c of cases) {
    if (assertShowsCli(c, await page.evaluate(enterInPage, caseFields(c)), expected.get(c))) routed++;
  }
  assert.ok(routed >= 140, `most cases route: ${routed}`);
  // A representative subset typed as a person would (paste, choose, type): the first case of each
  // group, every one sending a method, headers or naming a Gateway, and the first answer of each
  // kind (a redirect, a rewrite, a split, a refusal).
  const subset = new Set();
  const groups = new Set();
  const kinds = new Set();
  for (const c of cases) {
    const group = c.id.split("/")[0];
    const e = expected.get(c);
    const kind = e.refused !== undefined ? "refused" : e.redirect ? "redirect" : e.upstream ? "upstream" : e.split ? "split" : null;
    if (!groups.has(group) || c.request.method || c.request.headers || c.options?.gateway || (kind && !kinds.has(kind))) subset.add(c);
    groups.add(group);
    if (kind) kinds.add(kind);
  }
  await page.click("details.headers summary"); // the headers field stays open
  for (const c of subset) {
    const fields = caseFields(c);
    await pasteManifests(page, fields.text);
    if ((await page.inputValue("#gateway")) !== fields.gateway) await page.selectOption("#gateway", fields.gateway);
    if ((await page.inputValue("#method")) !== fields.method) await page.selectOption("#method", fields.method);
    if ((await page.inputValue("#headers")) !== fields.headers) await page.fill("#headers", fields.headers);
    await page.fill("#url", fields.url);
    assertShowsCli(c, await page.evaluate(readDecision), expected.get(c));
  }
  console.log(`     ${routed} Gateway API cases answered as the CLI does, ${cases.length - routed} refused by both, ${subset.size} of them typed in; ${left.length} use core-only options`);
});

/** Every migration pair: the careful translation (examples/migration) and each classic mistake (tests/cases/migration/<name>). */
async function migrationPairs() {
  const read = async (dir) => {
    const files = (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort();
    return (await Promise.all(files.map((f) => readFile(join(dir, f), "utf8")))).map((t) => `---\n${t}`).join("");
  };
  const pairs = [{ name: "careful", text: await read(join(repo, "examples/migration")), causes: [] }];
  const cases = join(repo, "tests/cases/migration");
  for (const name of (await readdir(cases)).sort()) {
    const { causes } = JSON.parse(await readFile(join(cases, name, "expected-causes"), "utf8"));
    pairs.push({ name, text: await read(join(cases, name)), causes });
  }
  return pairs;
}

test("migration: every pair's manifests, pasted, list the expected causes in the Migration panel, as diff --to gateway-api does", async (page) => {
  const dir = await mkdtemp(join(tmpdir(), "playground-migration-"));
  const pairs = await migrationPairs();
  assert.ok(pairs.length >= 8, pairs.map((p) => p.name).join(", "));
  await page.selectOption("#profile", "ingress-nginx"); // the CLI's --from by default
  for (const pair of pairs) {
    const file = join(dir, `${pair.name}.yaml`);
    await writeFile(file, pair.text);
    let native;
    try {
      native = JSON.parse(execFileSync(cli, ["diff", "--to", "gateway-api", "-f", file, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
    } catch (e) {
      if (e.status !== 1) throw e; // 1: an answer differs
      native = JSON.parse(e.stdout);
    }
    const before = await page.evaluate(() => window.playground.timings.migrations);
    await pasteManifests(page, pair.text);
    // The migration runs a moment after the manifests change.
    await page.waitForFunction((n) => window.playground.timings.migrations > n, before);
    assert.equal(await page.isHidden("#migration-pane"), false, pair.name);
    const listed = await page.$$eval("#migration .cause", (cs) => cs.map((c) => [c.dataset.cause, Number(c.querySelector(".count").textContent)]));
    assert.deepEqual(listed, native.causes.map((c) => [c.cause, c.differences.length]), `${pair.name}: the causes and their counts, as the CLI`);
    for (const cause of pair.causes) assert.ok(listed.some(([c]) => c === cause), `${pair.name}: ${cause} not among ${listed}`);
    const summary = await page.textContent("#migration .summary");
    assert.ok(summary.startsWith(`${native.probes} requests tried`), `${pair.name}: ${summary}`);
    if (pair.name === "careful") {
      assert.deepEqual(listed, [], "the careful translation: no cause");
      assert.match(summary, /every answer agrees/);
    } else {
      assert.ok(pair.causes.length > 0, `${pair.name}: expected-causes names a cause`);
      assert.match(summary, /answers? differs?/);
    }
    assert.equal(await page.isVisible("#migration-tests"), true, `${pair.name}: the agreed tests can be downloaded`);
  }
  console.log(`     ${pairs.length} migration pairs: the careful one agrees, ${pairs.length - 1} mistakes list their causes`);
});

for (const scheme of ["light", "dark"]) {
  test(`axe finds no serious or critical violation (${scheme})`, async (page) => {
    for (const id of ["merged-conflict", "invalid", "loadbalancer-status", "gateway-precedence", "gateway-listeners", "migration-ingress-nginx"]) {
      await loadExample(page, id);
      await page.addScriptTag({ content: axeSource });
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")})`), [], id);
    }
    await screenshot(page, `scheme-${scheme}`);
  }, { colorScheme: scheme });
}

test("narrow screen: no sideways scrolling", async (page) => {
  await loadExample(page, "merged-conflict");
  await typeUrl(page, "https://shop.example.com/api/orders");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await screenshot(page, "narrow");
  await screenshotOf(page, "#request", "narrow-request");
  await screenshotOf(page, ".manifests", "narrow-manifests");
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  assert.deepEqual(result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")}`), []);
  // The Gateway API and migration views fit too.
  for (const id of ["gateway-precedence", "gateway-grpc", "migration-ingress-nginx"]) {
    await loadExample(page, id);
    await page.waitForFunction(() => window.playground.settled());
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wider <= 0, `${id}: page is ${wider}px wider than the screen`);
  }
  await screenshotOf(page, "#migration-pane", "narrow-migration");
}, { viewport: { width: 390, height: 844 }, colorScheme: "dark" });

// ---- issue 33: what a new user ran into ----

const NGINX_CAUSES = ["ssl-redirect", "from-to-www-redirect", "https-default-certificate", "trailing-slash-redirect", "regex-case-insensitive",
  "use-regex-whole-host", "rewrite-target-implies-regex", "regex-prefix", "rewrite-capture-dropped", "canary"];

for (const width of [390, 1280]) {
  test(`the decision box shows every line it holds (weights example, ${width} px)`, async (page) => {
    await loadExample(page, "gateway-weights");
    const box = await page.evaluate(() => {
      const d = document.getElementById("decision");
      const up = document.getElementById("upstream-request").getBoundingClientRect();
      const r = d.getBoundingClientRect();
      return { scroll: d.scrollHeight, client: d.clientHeight, upstreamInside: up.height > 0 && up.bottom <= r.bottom - 2 };
    });
    assert.ok(box.scroll <= box.client, `${box.scroll} px of content in a ${box.client} px box`);
    assert.ok(box.upstreamInside, "the Upstream line is inside the box");
  }, { viewport: { width, height: 900 } });

  test(`the editor's top line is whole after each gallery example opens (${width} px)`, async (page) => {
    for (const example of gallery) {
      const id = example.file.replace(/\.yaml$/, "");
      await loadExample(page, id);
      await page.waitForTimeout(150); // the editor's scroll is applied in its next measures
      const cut = await page.evaluate(() => {
        const top = document.querySelector(".cm-scroller").getBoundingClientRect().top;
        const line = [...document.querySelectorAll(".cm-content .cm-line")].find((l) => l.getBoundingClientRect().bottom > top + 1);
        const r = line.getBoundingClientRect();
        return r.top < top - 1 ? `${line.textContent.slice(0, 40)}: ${Math.round(top - r.top)} of ${Math.round(r.height)} px hidden` : null;
      });
      assert.equal(cut, null, id);
    }
  }, { viewport: { width, height: 900 } });
}

test("Gateway API view: Host and Path show the request; a path typed alone keeps the host; no URL without a host", async (page) => {
  const file = galleryFile("gateway-weights.yaml");
  await loadExample(page, "gateway-weights");
  assert.equal(await page.inputValue("#host"), "shop.example.com");
  assert.equal(await page.inputValue("#path"), "/checkout/pay");
  await page.fill("#path", "");
  await page.type("#path", "/x");
  assert.equal(await page.inputValue("#url"), "http://shop.example.com/x");
  assert.equal((await decision(page)).backend, cliRoute(file, "http://shop.example.com/x").label);
  // The host cleared: the page says a request needs one, and makes up no URL.
  await page.fill("#host", "");
  assert.equal(await page.inputValue("#url"), "http://shop.example.com/x");
  assert.match((await decision(page)).matched, /no host/);
  await page.type("#host", "shop.example.com");
  assert.equal((await decision(page)).backend, cliRoute(file, "http://shop.example.com/x").label);
});

test("narrow screen: the compiled tables are cards, every cell readable", async (page) => {
  for (const id of ["docs-path-matching", "gateway-precedence"]) {
    await loadExample(page, id);
    const narrow = await page.$$eval("#table td", (tds) => tds.filter((td) => td.offsetParent && td.clientWidth < 200).map((td) => `${td.dataset.label}: ${td.clientWidth} px`));
    assert.deepEqual(narrow.slice(0, 5), [], `${id}: cells too narrow to read`);
    const labels = await page.$$eval("#table td[data-label]", (tds) => tds.length);
    assert.ok(labels > 0, `${id}: the cells name their column`);
  }
  await screenshotOf(page, "#table", "narrow-table");
}, { viewport: { width: 390, height: 844 } });

test("migration panel: the causes follow the profile (spec names none of ingress-nginx's)", async (page) => {
  await loadExample(page, "migration-ingress-nginx");
  await page.waitForSelector("#migration .cause");
  const nginx = await page.$$eval("#migration .cause", (cs) => cs.map((c) => c.dataset.cause));
  assert.ok(nginx.includes("rewrite-capture-dropped"), nginx.join(", "));
  const before = await page.evaluate(() => window.playground.timings.migrations);
  await page.selectOption("#profile", "spec");
  await page.waitForFunction((n) => window.playground.timings.migrations > n, before);
  const spec = await page.$$eval("#migration .cause", (cs) => cs.map((c) => [c.dataset.cause, c.querySelector("h3").textContent]));
  assert.ok(spec.length > 0, "the answers still differ under spec");
  for (const [cause, title] of spec) {
    assert.ok(!NGINX_CAUSES.includes(cause), `${cause} under spec`);
    assert.doesNotMatch(title, /ingress-nginx/, title);
  }
  assert.match(await page.textContent("#migration .summary"), /as spec routes them/);
});

test("many requests: each malformed line is flagged at its line, the others are routed", async (page) => {
  const file = galleryFile("merged-conflict.yaml");
  await loadExample(page, "merged-conflict");
  await page.fill("#requests", ["https://shop.example.com/api/orders", "not a url at all", "", "shop.example.com api", "GET https://shop.example.com/apiary", "shop.example.com/x"].join("\n"));
  const rows = await page.$$eval(".results tbody tr", (trs) => trs.map((tr) => [tr.className, ...[...tr.cells].map((td) => td.textContent.trim())]));
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), [["", "1"], ["error", "2"], ["error", "4"], ["", "5"], ["error", "6"]]);
  assert.equal(rows[0][3], cliRoute(file, "https://shop.example.com/api/orders").label);
  assert.equal(rows[3][3], cliRoute(file, "GET https://shop.example.com/apiary").label);
  assert.match(rows[1][3], /not a request/);
  assert.equal(await page.getAttribute("#requests", "aria-invalid"), "true");
  const flagged = await page.$$eval("#request-problems li", (lis) => lis.map((li) => li.textContent));
  assert.equal(flagged.length, 3);
  assert.match(flagged[0], /line 2/);
  // A flagged line, chosen, is selected in the list.
  await page.click('#request-problems button[data-line="4"]');
  const selected = await page.evaluate(() => { const t = document.getElementById("requests"); return t.value.slice(t.selectionStart, t.selectionEnd); });
  assert.equal(selected, "shop.example.com api");
  // Only the good lines are exported.
  await page.fill("#requests", "https://shop.example.com/api/orders");
  assert.equal(await page.getAttribute("#requests", "aria-invalid"), "false");
  assert.ok(await page.isHidden("#request-problems"));
});

test("no rule matches: the decision and the picture name the Ingresses left out and the routes not attached, and why", async (page) => {
  await loadExample(page, "ingress-class");
  await typeUrl(page, "https://apps.example.com/zzz");
  const d = await decision(page);
  assert.equal(d.backend, cliRoute(galleryFile("ingress-class.yaml"), "https://apps.example.com/zzz", { ingressClass: "nginx" }).label);
  assert.match(d.matched, /left out of routing: Ingress apps\/named-traefik \(belongs to IngressClass "traefik"/);
  assert.match(await page.textContent("#flow .left-out"), /apps\/named-traefik belongs to IngressClass "traefik"/);
  // Words first, the package's code beside.
  assert.equal((await page.textContent("#via-words")).trim(), "no rule matched, and no default backend");
  assert.equal(d.via, "none");

  await pasteManifests(page, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: infra}
spec: {gatewayClassName: example, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: api, namespace: infra}
spec:
  parentRefs: [{name: public}]
  rules: [{matches: [{path: {type: PathPrefix, value: /api}}], backendRefs: [{name: api, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: public, namespace: infra}]
  rules: [{backendRefs: [{name: shop, port: 80}]}]
`);
  await typeUrl(page, "http://example.com/shop");
  const g = await decision(page);
  assert.equal(g.backend, "404");
  assert.match(g.matched, /not attached here: HTTPRoute shop\/shop \(/);
  assert.match(await page.textContent("#flow .left-out"), /shop\/shop/);
});

test("Gateway API: a backendRef refused for want of a ReferenceGrant is named in the decision, with the grant missing", async (page) => {
  await loadExample(page, "gateway-reference-grant");
  const d = await decision(page);
  assert.equal(d.backend, "500");
  assert.match(d.matched, /backendRef audit\/audit-log:8080 refused: no ReferenceGrant in namespace audit lets HTTPRoutes of namespace shop refer to it \(RefNotPermitted\)/);
});

test("the example selector says \"(your own)\" once the editor changed, and an example chosen again loads", async (page) => {
  await loadExample(page, "tls");
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText("\n# mine");
  assert.equal(await page.inputValue("#gallery"), "");
  assert.equal(await page.$eval("#gallery", (s) => s.selectedOptions[0].textContent), "(your own)");
  await loadExample(page, "tls");
  assert.equal(await editorText(page), await readFile(galleryFile("tls.yaml"), "utf8"));
  assert.equal(await page.inputValue("#gallery"), "tls");
});

/**
 * The page's clipped content: an element whose content is cut without a scroll bar (overflow
 * hidden or clip, content taller or wider than the box), or a block whose content spills out of it
 * sideways. The editor scrolls itself; hidden, screen-reader-only and form fields are left out.
 */
function clippedContent() {
  const bad = [];
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${[...el.classList].map((c) => `.${c}`).join("")}`;
  for (const el of document.querySelectorAll("header *, main *, section *")) {
    if (el.closest(".cm-editor, [hidden], .sr-only, select, input, textarea, svg, details:not([open]) > :not(summary)")) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.display === "contents" || cs.display === "inline" || cs.position === "fixed") continue;
    const cut = (overflow) => overflow === "hidden" || overflow === "clip";
    const where = `${name(el.parentElement)} > ${name(el)}`;
    if (cut(cs.overflowY) && el.scrollHeight > el.clientHeight + 1) bad.push(`${where}: ${el.scrollHeight} px of content in ${el.clientHeight}`);
    else if (cut(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) bad.push(`${where}: ${el.scrollWidth} px wide content in ${el.clientWidth}`);
    else if (cs.overflowX === "visible" && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      // Text or a child in the flow past the box's right edge (decorations, such as the
      // picture's arrows between stages, are pseudo-elements and do not count).
      const right = el.getBoundingClientRect().left + el.clientLeft + el.clientWidth + 1;
      const out = [...el.childNodes].some((n) => {
        if (n.nodeType === Node.TEXT_NODE) {
          if (!n.textContent.trim()) return false;
          const range = document.createRange();
          range.selectNodeContents(n);
          return [...range.getClientRects()].some((r) => r.right > right);
        }
        return n.nodeType === Node.ELEMENT_NODE && getComputedStyle(n).position !== "absolute" && n.getBoundingClientRect().right > right;
      });
      if (out) bad.push(`${where}: spills ${el.scrollWidth - el.clientWidth} px out of its box`);
    }
  }
  return bad;
}

/**
 * Each row of the migration tables under `root`: the parts of both answers (status, backend,
 * location, upstream), which are highlighted, and why the request was tried (words, code).
 */
const migrationRows = (page, root) => page.$$eval(`${root} .migration-table tbody tr`, (trs) => trs.map((tr) => {
  const side = (td) => [...td.querySelectorAll("code.answer [data-part]")].map((p) => ({ key: p.dataset.part, text: p.textContent, marked: p.matches("mark.differs") }));
  const tds = tr.querySelectorAll("td");
  return { request: tds[0].textContent, kind: tds[0].querySelector(".probe-kind")?.textContent, code: tds[0].querySelector(".probe-kind + code")?.textContent,
    ingress: side(tds[1]), gateway: side(tds[2]) };
}));

function assertHighlighted(rows, where) {
  assert.ok(rows.length > 0, `${where}: rows`);
  for (const row of rows) {
    assert.ok(row.kind && row.code && row.kind !== row.code, `${where}: ${row.request}: why it was tried, in words (${row.kind}) beside the code (${row.code})`);
    const marked = [...row.ingress, ...row.gateway].filter((p) => p.marked);
    assert.ok(marked.length > 0, `${where}: ${row.request}: the part that differs is highlighted`);
    for (const [mine, theirs] of [[row.ingress, row.gateway], [row.gateway, row.ingress]]) {
      for (const p of mine) {
        const other = theirs.find((q) => q.key === p.key)?.text;
        assert.equal(p.marked, other !== p.text, `${where}: ${row.request}: ${p.key} ${p.text} vs ${other}`);
      }
    }
  }
}

test("migration rows: why each request was tried in words, the differing part of the two answers highlighted, a legend (panel and Convert proof)", async (page) => {
  await loadExample(page, "migration-ingress-nginx");
  await page.waitForSelector("#migration-pane:not([hidden]) .cause");
  assert.match(await page.textContent("#migration .legend"), /status, backend .*upstream.*Highlighted.*differs/s);
  assertHighlighted(await migrationRows(page, "#migration"), "migrate()");
  // The upstream path is what differs when the rewrite's capture was dropped; the status is not marked.
  const dropped = await migrationRows(page, '#migration .cause[data-cause="rewrite-capture-dropped"]');
  assert.ok(dropped.every((r) => r.ingress.find((p) => p.key === "upstream")?.marked && !r.ingress.find((p) => p.key === "status").marked));
  await page.click("#convert");
  await page.waitForSelector(".conversion-proof .cause");
  assert.match(await page.textContent(".conversion-proof .legend"), /status, backend .*upstream.*Highlighted.*differs/s);
  assertHighlighted(await migrationRows(page, ".conversion-proof"), "convert() proof");
  await screenshotOf(page, "#migration-pane", "migration-highlighted");
});

/** The words of labels (column names, headings, field labels) split across two lines. */
function labelsBrokenMidWord() {
  const out = [];
  for (const el of document.querySelectorAll("th, h1, h2, h3, h4, label, legend, summary, caption")) {
    if (el.closest("[hidden], .sr-only, .cm-editor")) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest("code, select, option, input, textarea, button")) continue;
      const words = /[A-Za-z]{2,}/g;
      for (let m = words.exec(n.textContent); m; m = words.exec(n.textContent)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}: ${m[0]}`);
      }
    }
  }
  return out;
}

test("narrow screen: labels (toolbar, column names, headings) wrap between words, never inside one (390 px)", async (page) => {
  const broken = new Set();
  for (const example of gallery) {
    await loadExample(page, example.file.replace(/\.yaml$/, ""));
    for (const b of await page.evaluate(labelsBrokenMidWord)) broken.add(`${example.file}: ${b}`);
  }
  assert.deepEqual([...broken].slice(0, 10), [], `${broken.size} words broken`);
}, { viewport: { width: 390, height: 844 } });

for (const scheme of ["light", "dark"]) {
  for (const width of [390, 1280]) {
    test(`layout: no panel of any gallery example clips its content (${width} px, ${scheme})`, async (page) => {
      for (const example of gallery) {
        const id = example.file.replace(/\.yaml$/, "");
        await loadExample(page, id);
        await page.waitForFunction(() => window.playground.settled());
        const bad = await page.evaluate(clippedContent);
        assert.deepEqual(bad.slice(0, 8), [], `${id}: ${bad.length} clipped`);
      }
    }, { viewport: { width, height: 900 }, colorScheme: scheme });
  }
}

// ---- issue 33: axe on every view ----

/**
 * Opens what a person can open on the page as it stands: every <details> (headers, the paths not
 * considered, the PUT requests, ...) and every "Show all" of the compiled table.
 */
async function openEverything(page) {
  for (let round = 0; round < 3; round++) {
    const opened = await page.evaluate(() => {
      let n = 0;
      for (const d of document.querySelectorAll("details:not([open])")) {
        if (d.closest("[hidden]")) continue;
        d.open = true;
        n++;
      }
      for (const b of document.querySelectorAll("button.show-all")) {
        if (b.closest("[hidden]") || !b.offsetParent) continue;
        b.click();
        n++;
      }
      return n;
    });
    // Lazy parts are drawn on the toggle event, after this task.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    if (!opened) break;
  }
}

const AXE_SCHEMES = ["light", "dark"];
const AXE_WIDTHS = [390, 1280];

/**
 * axe-core on the whole page as it stands, in light and dark mode at 390 and 1280 px (one page,
 * its media switched): every violation, whatever its impact, named with where it was found.
 */
async function axeEverywhere(page, where) {
  const found = [];
  let runs = 0;
  await openEverything(page);
  for (const scheme of AXE_SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of AXE_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      runs++;
      for (const v of result.violations) {
        found.push(`${where} (${scheme}, ${width} px): ${v.id} [${v.impact}] ${v.help}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")}`);
      }
    }
  }
  return { found, runs };
}

test("axe on every view: each gallery example and each panel a person can open, light and dark, 390 and 1280 px, no violation at all", async (page) => {
  await grantClipboard(page);
  await page.addScriptTag({ content: axeSource }); // the page is never navigated away: loaded once
  const violations = [];
  const views = [];
  let runs = 0;
  const check = async (where) => {
    await settled(page);
    const r = await axeEverywhere(page, where);
    violations.push(...r.found);
    runs += r.runs;
    views.push(where);
  };
  const paneShown = (selector) => page.evaluate((s) => { const el = document.querySelector(s); return Boolean(el && !el.closest("[hidden]") && el.offsetParent); }, selector);

  for (const example of gallery) {
    const id = example.file.replace(/\.yaml$/, "");
    await loadExample(page, id);
    await page.waitForFunction(() => window.playground.settled());
    // The decision, the candidates ("How it was decided"), the compiled table, Many requests,
    // the status (and the Gateway API status), the migration panel when it shows.
    assert.ok(await paneShown("#decision"), `${id}: the decision`);
    assert.ok((await page.textContent("#flow")).trim().length > 0, `${id}: the candidates`);
    assert.ok((await page.textContent("#table")).trim().length > 0, `${id}: the compiled table`);
    await check(id);
    // The migration panel's "Convert to Gateway API" view (any example with Ingresses).
    if (await paneShown("#convert")) {
      await page.click("#convert");
      await page.waitForSelector("#conversion:not([hidden])");
      await check(`${id}, Convert to Gateway API`);
    }
  }

  // The migration panel comparing the HTTPRoutes with the Ingresses; a row loaded into the request.
  await loadExample(page, "migration-ingress-nginx");
  await page.waitForSelector("#migration-compare:not([hidden]) #migration .cause");
  await page.click("#migration .load-request");
  assert.notEqual((await page.textContent("#migration-note")).trim(), "", "the row was loaded");
  await check("migration-ingress-nginx, a row loaded");
  await page.click("#migration .explain-side");
  await check("migration-ingress-nginx, explained by one side");

  // The gRPC call request form, on an Ingress example (the HTTP request's host preset).
  await loadExample(page, "docs-path-matching");
  await page.check("#kind-grpc");
  assert.ok(await paneShown("#grpc-service"), "the gRPC fields");
  await page.fill("#grpc-service", "shop.Cart");
  await page.fill("#grpc-method", "AddItem");
  await page.fill("#grpc-metadata", "x-user: 1");
  await check("docs-path-matching, a gRPC call");
  await page.check("#kind-http");

  // A URL that names no rule, and the Host and Path fields without a host.
  await typeUrl(page, "https://nowhere.example.com/zzz");
  await check("docs-path-matching, no rule matches");
  await page.fill("#host", "");
  await page.type("#path", "x");
  assert.match((await decision(page)).matched, /no host/);
  await check("docs-path-matching, a request without a host");

  // Many requests: routed lines, lines that are no request (flagged), a line chosen.
  await loadExample(page, "merged-conflict");
  await page.fill("#requests", ["https://shop.example.com/api/orders", "not a url at all", "GET https://shop.example.com/apiary", "shop.example.com api"].join("\n"));
  await page.click('#request-problems button[data-line="2"]');
  assert.equal(await page.isHidden("#request-problems"), false);
  await check("merged-conflict, many requests with flagged lines");
  await page.click("#export");
  await page.click("#share");
  await page.waitForFunction(() => document.getElementById("share-note").textContent !== "");
  await check("merged-conflict, exported and shared (the notes)");

  // The status panel for a publish Service, and for one the manifests do not hold.
  await loadExample(page, "loadbalancer-status");
  assert.ok((await page.textContent("#status")).trim().length > 0, "the status panel");
  await check("loadbalancer-status, status");
  await page.fill("#publish-service", "nowhere/none");
  await check("loadbalancer-status, status of a Service the manifests lack");

  // Manifests that cannot be read, and a problem chosen in the list.
  await pasteManifests(page, "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a\nspec: [\n");
  await check("manifests that cannot be read");
  await loadExample(page, "invalid");
  await page.click("#problems li button");
  await check("invalid, a problem chosen");

  console.log(`     axe: ${views.length} views × ${AXE_SCHEMES.length} schemes × ${AXE_WIDTHS.length} widths = ${runs} runs`);
  assert.equal(runs, views.length * AXE_SCHEMES.length * AXE_WIDTHS.length);
  assert.deepEqual(violations.slice(0, 25), [], `${violations.length} violations`);
});

// ---- run ----

const only = process.argv[2];
const server = await startServer();
const browser = await launch();
let failed = 0;
try {
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const started = Date.now();
    const page = await openPage(browser, server.url, t.options);
    try {
      await t.fn(page, { browser, url: server.url });
      assert.deepEqual(page.errors, [], "no console errors");
      console.log(`ok   ${t.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL ${t.name}\n     ${String(error.stack ?? error).split("\n").slice(0, 6).join("\n     ")}`);
      await screenshot(page, `failed-${t.name.replace(/\W+/g, "-")}`).catch(() => {});
    } finally {
      await page.context().close();
    }
  }
  if (!only || "speed".includes(only)) {
    const figures = await speed(browser, server.url);
    await writeFile(join(shotsDir, "speed.json"), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`speed (ms, medians and 95th percentiles in Chromium): ${JSON.stringify(figures)}`);
    // Issue 33's aims: before (`?defer=0`) and after, alternated.
    figures.aims = await aims(browser, server.url);
    await writeFile(join(shotsDir, "speed.json"), `${JSON.stringify(figures, null, 2)}\n`);
    console.log("aims (ms, medians; before → after):");
    for (const [k, v] of Object.entries(figures.aims.medians)) console.log(`     ${k}: ${v.before} → ${v.after}`);
  }
} finally {
  await browser.close();
  server.stop();
}
console.log(failed ? `${failed} test(s) failed` : `all tests passed; screenshots in ${shotsDir}`);
process.exit(failed ? 1 : 0);

// Vite and webpack 5 production builds of a small app (test/bundlers/) that imports the packed
// package by name, with no configuration for it; each output is served on 127.0.0.1 by
// test/serve.mjs (a child process, stopped by PID) and loaded in headless Chromium, which must show
// a real route decision and the element's. Argument: the consumer project (the packed package
// installed in node_modules).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build as vite } from "vite";
import webpack from "webpack";

const root = process.argv[2];
const app = join(root, "bundlers");
cpSync(fileURLToPath(new URL("./bundlers/", import.meta.url)), app, { recursive: true });

async function viteBuild(out) {
  await vite({ root: app, configFile: false, logLevel: "warn", build: { outDir: out, emptyOutDir: true } });
}

async function webpackBuild(out) {
  const config = { mode: "production", context: app, entry: "./main.js", output: { path: out }, performance: { hints: false } };
  const stats = await new Promise((resolve, reject) =>
    webpack(config, (e, stats) => (e ? reject(e) : resolve(stats))),
  );
  assert.ok(!stats.hasErrors() && !stats.hasWarnings(), stats.toString("errors-warnings"));
  // webpack emits scripts, not pages: the app's page, with its bundle as a classic script.
  const page = readFileSync(join(app, "index.html"), "utf8");
  const script = '<script type="module" src="./main.js"></script>';
  assert.ok(page.includes(script));
  writeFileSync(join(out, "index.html"), page.replace(script, '<script defer src="main.js"></script>'));
}

// Serves `dir` from a child process; returns its base URL and PID.
async function serve(dir) {
  const child = spawn(process.execPath, [fileURLToPath(new URL("serve.mjs", import.meta.url)), dir], { stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    child.stdout.once("data", (line) => resolve(String(line).trim()));
    child.once("exit", (code) => reject(new Error(`test/serve.mjs exited (${code})`)));
  });
  return { base, pid: child.pid };
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  for (const [name, bundle] of [["Vite", viteBuild], ["webpack", webpackBuild]]) {
    const out = join(root, `${name.toLowerCase()}-out`);
    const started = performance.now();
    await bundle(out);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const emitted = readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith(".wasm"));
    // The first module, the second (Gateway API) and the route-only one (the element's `table`
    // attribute imports it): all emitted, each fetched only when the page needs it.
    assert.equal(emitted.length, 3, `${name} emitted ${emitted.length} .wasm files: ${emitted}`);

    const server = await serve(out);
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      const wasm = [];
      page.on("response", (r) => r.url().endsWith(".wasm") && wasm.push(r.status()));
      await page.goto(`${server.base}/`);
      const decision = page.locator("#decision");
      await decision.filter({ hasText: "rule" }).waitFor({ timeout: 30_000 }).catch((e) => {
        throw new Error(`the ${name} page shows no decision (${errors.join("; ") || e.message})`);
      });
      assert.equal(await decision.textContent(), "rule cart-api:8080 (/cart)");
      const element = page.locator("#demo .backend");
      await element.waitFor({ timeout: 30_000 });
      assert.equal(await element.textContent(), "web:80");
      assert.deepEqual(wasm, [200], `${name}: the .wasm requests before the second module is needed`);
      await page.locator("#gateway").click();
      const second = page.locator("#second");
      await second.filter({ hasText: "200" }).waitFor({ timeout: 30_000 });
      assert.equal(await second.textContent(), "200 cart-api:8080");
      assert.deepEqual(wasm, [200, 200], `${name}: the .wasm requests once the second module is loaded`);
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      process.kill(server.pid);
    }
    console.log(`${name} production build (${seconds} s, emits ${emitted.join(", ")}; the second fetched on demand) in Chromium: ok`);
  }
} finally {
  await browser.close();
}

// What every browser test needs: the page served by serve.mjs on a free loopback port, Debian's
// Chromium driven by playwright-core, console errors collected, screenshots saved.
import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const webDir = join(dirname(fileURLToPath(import.meta.url)), "..");
export const shotsDir = join(webDir, "screenshots");

export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run",
];

/** Starts serve.mjs on a free port; resolves to {url, stop}. */
export async function startServer() {
  const child = spawn(process.execPath, [join(webDir, "serve.mjs"), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = /serving (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
  const stop = () => {
    try {
      process.kill(child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  return { url, stop };
}

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** A new page (fresh context) whose console errors and page errors are collected in `page.errors`. */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => page.errors.push(`page: ${e.message}`));
  page.on("requestfailed", (r) => page.errors.push(`request failed: ${r.url()}`));
  page.on("request", (r) => {
    const origin = new URL(url).origin;
    if (!r.url().startsWith(`${origin}/`) && !r.url().startsWith("blob:") && !r.url().startsWith("data:")) {
      page.errors.push(`request outside the playground: ${r.url()}`);
    }
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready]");
  return page;
}

/** A screenshot of one element (to look at a part of a long page closely). */
export async function screenshotOf(page, selector, name) {
  await mkdir(shotsDir, { recursive: true });
  await page.locator(selector).screenshot({ path: join(shotsDir, `${name}.png`) });
}

export async function screenshot(page, name) {
  await mkdir(shotsDir, { recursive: true });
  const path = join(shotsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

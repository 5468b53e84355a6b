// Where the time of opening a 1 000-path share link goes (issue 33, (a)): resource timing, the
// page's own timings and marks, in headless Chromium. `node test/profile-open.mjs [rounds] [query…]`.
import { launch, openPage, startServer } from "./harness.mjs";
import { shareHash, thousandPathsState } from "./speed.mjs";

const rounds = Number(process.argv[2] ?? 5);
const queries = process.argv.slice(3).length ? process.argv.slice(3) : [""];
const hash = shareHash(thousandPathsState());
const server = await startServer();
const browser = await launch();
const rows = {};
try {
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const page = await openPage(browser, `${server.url}${q}${hash}`);
      const t = await page.evaluate(() => {
        const out = {};
        const nav = performance.getEntriesByType("navigation")[0];
        out["html responseEnd"] = nav.responseEnd;
        out["DOMContentLoaded"] = nav.domContentLoadedEventEnd;
        for (const e of performance.getEntriesByType("resource")) {
          const name = e.name.split("/").pop().split("?")[0];
          out[`${name} start`] = e.startTime;
          out[`${name} end`] = e.responseEnd;
        }
        for (const m of performance.getEntriesByType("mark")) out[`mark ${m.name}`] = m.startTime;
        const tm = window.playground.timings;
        out.started = tm.started;
        if (tm.decoded) out.decoded = tm.decoded;
        if (tm.editor) out["editor made"] = tm.editor;
        if (tm.packageReady) out["package ready"] = tm.packageReady;
        out.interactive = tm.interactive;
        out.painted = tm.painted;
        for (const [k, v] of Object.entries(tm.openParts ?? {})) out[`open · ${k}`] = v;
        const paint = performance.getEntriesByType("paint");
        for (const p of paint) out[p.name] = p.startTime;
        return out;
      });
      for (const [k, v] of Object.entries(t)) ((rows[k] ??= {})[q || "(default)"] ??= []).push(v);
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  server.stop();
}
const median = (xs) => +[...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
const table = Object.entries(rows).map(([k, byQ]) => ({ what: k, ...Object.fromEntries(Object.entries(byQ).map(([q, v]) => [q, median(v)])) }));
table.sort((a, b) => (Object.values(a).find((v) => typeof v === "number") ?? 0) - (Object.values(b).find((v) => typeof v === "number") ?? 0));
console.table(table);

// A CPU profile of opening a 1 000-path share link (main thread), self time by function and by
// script, to see where issue 33's (a) goes. `node test/cpuprofile-open.mjs [query]`.
import { launch, startServer } from "./harness.mjs";
import { shareHash, thousandPathsState } from "./speed.mjs";

const hash = shareHash(thousandPathsState());
const server = await startServer();
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: Number(process.env.INTERVAL ?? 100) });
  await cdp.send("Profiler.start");
  await page.goto(`${server.url}${process.argv[2] ?? ""}${hash}`);
  await page.waitForSelector("body[data-ready]");
  const { profile } = await cdp.send("Profiler.stop");
  const t = await page.evaluate(() => window.playground.timings);
  console.log("started", t.started.toFixed(1), "interactive", t.interactive.toFixed(1), "painted", t.painted.toFixed(1));
  // Self time per node, then the node's nearest frame under the page's origin attributed up.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const fn = {};
  const top = {};
  for (const [id, ms] of self) {
    const n = byId.get(id);
    const f = n.callFrame;
    const key = `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber}`;
    fn[key] = (fn[key] ?? 0) + ms;
    // the outermost page frame's function below the root, chain of names
    const chain = [];
    let cur = id;
    while (cur != null) {
      const c = byId.get(cur).callFrame;
      chain.push(`${c.functionName || "(anon)"}@${c.url.split("/").pop()}`);
      cur = parent.get(cur);
    }
    const full = chain.reverse();
    const k = full.slice(1 + Number(process.env.SKIP ?? 0), Number(process.env.DEPTH ?? 4)).join(" > ");
    if (process.env.FILTER && !full.join(" > ").includes(process.env.FILTER)) continue;
    top[k] = (top[k] ?? 0) + ms;
  }
  const show = (o, n) => Object.entries(o).sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(v.toFixed(1).padStart(7), k));
  // A timeline: 20 ms buckets from the first sample, each with its busiest stack heads.
  if (process.env.TIMELINE) {
    let at = 0;
    const buckets = [];
    for (let i = 0; i < profile.samples.length; i++) {
      at += (profile.timeDeltas[i] ?? 0) / 1000;
      const b = (buckets[Math.floor(at / 20)] ??= {});
      const chain = [];
      for (let cur = profile.samples[i]; cur != null; cur = parent.get(cur)) {
        const c = byId.get(cur).callFrame;
        chain.push(`${c.functionName || "(anon)"}`);
      }
      const key = chain.reverse().slice(1, 1 + Number(process.env.TIMELINE)).join(">");
      b[key] = (b[key] ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000;
    }
    buckets.forEach((b, i) => b && console.log(String(i * 20).padStart(5), Object.entries(b).sort((x, y) => y[1] - x[1]).slice(0, 3).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(" | ")));
  }
  console.log("--- self time by function");
  show(fn, 40);
  console.log("--- by top of stack chain");
  show(top, 30);
} finally {
  await browser.close();
  server.stop();
}

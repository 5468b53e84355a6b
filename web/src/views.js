// The page's views of what the package returned: the decision, the picture of the matching, the
// compiled table, the problems list. They only arrange and format; every fact comes from
// `route`, `explain`, `table`, `diagnostics` and `validate`.
import { answerLabel, budgetNote, esc, grpcStatusText, hostLabel, leftOutText, viaWords } from "./format.js";

const TIER_NAMES = { exact: "exact host", wildcard: "wildcard host", any: "host-less rules" };
// Rows drawn at once; the rest on request ("Show all"), so that a table of thousands of paths
// keeps every keystroke within a frame.
const MAX_CANDIDATES = 25;
const MAX_PATHS = 150; // over all hosts of the compiled table
const MAX_PROBLEMS = 100;

/**
 * The decision region: backend (or redirect, or split) written exactly, via (in words, the code
 * beside), the matched rule, the upstream path. `excluded`: the Ingresses left out of routing
 * (`table().excluded`), named when no rule answered.
 */
export function renderDecision(el, decision, error, excluded = []) {
  const backend = el.querySelector("#backend");
  const via = el.querySelector("#via");
  const matched = el.querySelector("#matched");
  const upstream = el.querySelector("#upstream");
  el.classList.toggle("failed", Boolean(error));
  upstream.hidden = !decision?.upstreamPath || Boolean(error);
  const words = el.querySelector("#via-words");
  if (error) {
    backend.textContent = "—";
    via.textContent = "—";
    words.textContent = "";
    matched.textContent = error;
    return;
  }
  const label = answerLabel(decision);
  backend.textContent = label;
  backend.dataset.kind = decision.redirect ? "redirect" : decision.split ? "split"
    : !decision.backend ? "none" : decision.backend.resource ? "resource" : "service";
  upstream.querySelector("code").textContent = decision.upstreamPath ?? "";
  words.textContent = viaWords(decision.via);
  via.textContent = decision.via + (decision.defaultFrom ? ` (spec.defaultBackend of ${decision.defaultFrom})` : "") + grpcStatusText(decision);
  const m = decision.matched;
  const leftOut = !m && excluded.length ? ` · left out of routing: ${leftOutText(excluded.map((x) => ({ name: `Ingress ${x.namespace}/${x.name}`, reason: x.reason })))}` : "";
  matched.textContent = (m
    ? `Ingress ${m.ingress} · host ${hostLabel(m.host)} · ${m.pathType} ${m.path} · ${m.field}`
    : decision.via === "defaultBackend"
      ? "no path matched: the default backend answers"
      : decision.via === "redirect"
        ? "the proxy answers with a redirect"
        : decision.reason ?? "no rule and no defaultBackend: the controller answers 404") + leftOut + budgetNote(decision);
}


function candidateRow(c) {
  const state = c.chosen ? "winner" : c.matched ? "lost" : c.considered ? "nomatch" : "other";
  const mark = c.chosen ? "✔ chosen" : c.matched ? `✗ lost (rank ${c.rank ?? "–"})` : c.considered ? "no match" : "not considered";
  return `<tr class="${state}"><td class="mark">${esc(mark)}</td>` +
    `<td><code>${esc(c.pathType)} ${esc(c.path)} → ${esc(c.backend)}</code><br><span class="field">${esc(c.ingress)} · ${esc(hostLabel(c.host))} · ${esc(c.field)}</span></td>` +
    `<td class="reason">${esc(c.reason)}</td></tr>`;
}

function candidateTable(rows, caption) {
  return `<table class="candidates"><caption>${caption}</caption><thead><tr><th scope="col">Outcome</th><th scope="col">Rule</th>` +
    `<th scope="col">Why</th></tr></thead><tbody>${rows.map(candidateRow).join("")}</tbody></table>`;
}

/**
 * The picture: request → host tier → path candidates → backend, then every candidate and why.
 * `excluded`: the Ingresses left out of routing (`table().excluded`), named when no path matches.
 */
export function renderFlow(el, explanation, excluded = []) {
  const x = explanation;
  const d = x.decision;
  const considered = x.candidates.filter((c) => c.considered);
  const others = x.candidates.filter((c) => !c.considered);
  const winner = x.candidates.find((c) => c.chosen);
  const matching = considered.filter((c) => c.matched).length;
  const steps = x.hostSteps
    .map((s) => `<li class="${s.found ? "found" : "missing"}">${s.found ? "✔" : "✗"} ${esc(TIER_NAMES[s.tier] ?? s.tier)}: <code>${esc(s.lookedFor)}</code></li>`)
    .join("");
  const tier = x.tier ? `${esc(TIER_NAMES[x.tier] ?? x.tier)} <code>${esc(hostLabel(x.tierHost))}</code>` : "no tier";
  // The ingress-nginx profile explains in nginx's terms (steps, the rule that decided), not by candidates.
  const pathStage = x.steps?.length
    ? `<p class="key">${esc(x.decidedBy ?? "")}</p>`
    : winner
    ? `<code>${esc(winner.pathType)} ${esc(winner.path)}</code><p>${matching} of ${considered.length} path${considered.length === 1 ? "" : "s"} match${matching === 1 ? "es" : ""}</p>` +
      (x.decidedBy ? `<p class="key">Decided by precedence key ${esc(x.decidedBy)}</p>` : "")
    : `<span>none of ${considered.length} path${considered.length === 1 ? "" : "s"} matches</span>` +
      (excluded.length ? `<p class="reason left-out">Left out of routing: ${excluded.slice(0, 6).map((x) => `<code>${esc(x.namespace)}/${esc(x.name)}</code> ${esc(x.reason)}`).join("; ")}${excluded.length > 6 ? `; and ${excluded.length - 6} more (the compiled table lists them)` : ""}</p>` : "");
  const backendStage = `<code class="backend" data-kind="${d.via}">${esc(d.label)}</code><p>${esc(viaWords(d.via))} <code class="code-label">${esc(d.via)}</code></p>` +
    (x.defaultReason ? `<p>${esc(x.defaultReason)}</p>` : "");
  let html = `<ol class="stages">
    <li class="stage"><h3>Request</h3><code>${esc(x.host)}</code>${x.normalizedHost !== undefined && x.normalizedHost !== x.host ? `<p>host as matched: <code>${esc(x.normalizedHost)}</code></p>` : ""}<code>${esc(x.path)}</code>${x.matchedPath !== x.path ? `<p>path as matched: <code>${esc(x.matchedPath)}</code></p>` : ""}</li>
    <li class="stage"><h3>Host tier</h3><ul class="steps">${steps}</ul><p>${tier}</p><p class="reason">${esc(x.tierReason)}</p></li>
    <li class="stage"><h3>Path</h3>${pathStage}</li>
    <li class="stage ${d.via}"><h3>Backend</h3>${backendStage}</li>
  </ol>`;
  if (x.steps?.length) {
    html += `<ol class="nginx-steps" aria-label="The ingress-nginx profile's steps">${x.steps.map((s) => `<li>${esc(s)}</li>`).join("")}</ol>`;
  }
  html += `<div class="candidates-box" tabindex="0" role="region" aria-label="Candidates and why each did or did not win">`;
  if (considered.length) {
    const shown = considered.filter((c, i) => i < MAX_CANDIDATES || c.matched);
    html += candidateTable(shown, `Paths of the chosen tier, in precedence order${shown.length < considered.length ? ` (the first ${MAX_CANDIDATES} of ${considered.length}, and every matching one)` : ""}`);
  }
  if (others.length) {
    html += `<details class="others"><summary>${others.length} path${others.length === 1 ? "" : "s"} in other host tiers or hosts (not considered)</summary><div data-lazy></div></details>`;
  }
  html += `</div>`;
  el.innerHTML = html;
  // The winner in view inside its box (never scrolling the page).
  const box = el.querySelector(".candidates-box");
  const chosen = box?.querySelector("tr.winner");
  if (chosen) {
    requestAnimationFrame(() => {
      if (chosen.offsetTop + chosen.offsetHeight > box.clientHeight) box.scrollTop = Math.max(0, chosen.offsetTop - 40);
    });
  }
  const details = el.querySelector("details.others");
  details?.addEventListener("toggle", () => {
    const slot = details.querySelector("[data-lazy]");
    if (details.open && !slot.firstChild) slot.innerHTML = candidateTable(others, "Paths not considered, and why");
  });
}

/** Key of a table row, to find the winner's row again without re-rendering. */
export function rowKey(host, ingress, field) {
  return `${host} ${ingress} ${field}`; // none of them holds a space
}

function pathRow(host, p, i) {
  return `<tr data-key="${esc(rowKey(host, p.ingress, p.field))}" class="${p.standing.kind}"><td data-label="#">${i + 1}</td><td data-label="pathType"><code>${esc(p.pathType)}</code></td>` +
    `<td data-label="Path"><code>${esc(p.path)}</code></td><td data-label="Backend"><code>${esc(p.backend)}</code></td><td data-label="Ingress">${esc(p.ingress)} <span class="field">${esc(p.field)}</span></td>` +
    `<td data-label="Standing">${esc(p.standing.kind)}</td></tr>`;
}

function hostBlock(h, index, limit) {
  const paths = h.paths.slice(0, limit);
  const more = h.paths.length - paths.length;
  const dflt = h.defaultBackend ? `<p class="default">defaultBackend for this host: <code>${esc(h.defaultBackend.backend)}</code>${h.defaultBackend.ingress ? ` from ${esc(h.defaultBackend.ingress)}` : ""}</p>` : "";
  return `<div class="host-table" data-host="${index}"><table><caption><span class="tier ${h.tier}">${esc(TIER_NAMES[h.tier] ?? h.tier)}</span> <code>${esc(hostLabel(h.host))}</code> <span class="hint">${h.paths.length} path${h.paths.length === 1 ? "" : "s"}</span></caption>` +
    `<colgroup><col class="n"><col class="type"><col class="path"><col class="backend"><col class="ingress"><col class="standing"></colgroup>` +
    `<thead><tr><th scope="col">#</th><th scope="col">pathType</th><th scope="col">Path</th><th scope="col">Backend</th><th scope="col">Ingress</th><th scope="col">Standing</th></tr></thead>` +
    `<tbody>${paths.map((p, i) => pathRow(h.host, p, i)).join("")}</tbody></table>` +
    (more > 0 ? `<button type="button" class="show-all" data-host="${index}">Show ${paths.length ? "all " : ""}${h.paths.length} paths</button>` : "") + `${dflt}</div>`;
}

// The markup each table element was last drawn with: its host blocks and what follows them.
const drawnTables = new WeakMap();

/**
 * The compiled table. Returns `row(key)`: the row element of a path, drawing the rest of its
 * host's paths first when it is beyond the first ones drawn.
 */
export function renderTable(el, table) {
  let budget = MAX_PATHS;
  const partial = new Set();
  const blocks = table.hosts.map((h, i) => {
    const limit = Math.max(0, budget);
    budget -= h.paths.length;
    if (limit < h.paths.length) partial.add(i);
    return hostBlock(h, i, limit);
  });
  let end = table.hosts.length ? "" : `<p class="empty">No rules take part.</p>`;
  if (table.defaultBackend) {
    end += `<p class="default">When no host tier matches: <code>${esc(table.defaultBackend.backend)}</code>${table.defaultBackend.ingress ? ` (spec.defaultBackend of ${esc(table.defaultBackend.ingress)})` : ""}</p>`;
  } else {
    end += `<p class="default">When no host tier matches: <code>404</code> (no defaultBackend)</p>`;
  }
  if (table.excluded?.length) {
    end += `<h3>Ingresses left out</h3><ul class="excluded">${table.excluded.map((x) => `<li><strong>${esc(x.namespace)}/${esc(x.name)}</strong>: ${esc(x.reason)}</li>`).join("")}</ul>`;
  }
  end = `<div class="table-end">${end}</div>`;
  // An edit changes one host's paths, often none of those drawn: only blocks whose markup changed
  // are drawn again (a block the person expanded and that did not change stays expanded).
  const before = drawnTables.get(el);
  // Still this drawing (a Gateway API table may have been drawn in `el` since)?
  const ours = before && el.lastElementChild === before.end.node && el.children.length === before.blocks.length + 1;
  if (ours && before.blocks.length === blocks.length) {
    const fresh = (html) => {
      const wrapper = document.createElement("div");
      wrapper.innerHTML = html;
      return wrapper.firstChild;
    };
    blocks.forEach((html, i) => {
      if (html !== before.blocks[i]) el.querySelector(`.host-table[data-host="${i}"]`).replaceWith(fresh(html));
    });
    if (end !== before.end.html) el.lastElementChild.replaceWith(fresh(end));
  } else {
    el.innerHTML = blocks.join("") + end;
  }
  drawnTables.set(el, { blocks, end: { html: end, node: el.lastElementChild } });
  const rows = new Map();
  const index = (root) => {
    for (const tr of root.querySelectorAll("tr[data-key]")) rows.set(tr.dataset.key, tr);
  };
  const expand = (i) => {
    const block = el.querySelector(`.host-table[data-host="${i}"]`);
    const wrapper = document.createElement("div");
    wrapper.innerHTML = hostBlock(table.hosts[i], i, Infinity);
    partial.delete(i);
    const full = wrapper.firstChild;
    block.replaceWith(full);
    index(full);
  };
  index(el);
  el.onclick = (event) => {
    const button = event.target.closest("button.show-all");
    if (button) expand(Number(button.dataset.host));
  };
  return (key) => {
    if (!rows.has(key)) {
      const host = key.slice(0, key.indexOf(" "));
      const i = table.hosts.findIndex((h, n) => h.host === host && partial.has(n));
      if (i >= 0) expand(i);
    }
    return rows.get(key) ?? null;
  };
}

/** The problems list: one button per problem; `onPick(index)` moves the editor there. */
export function renderProblems(list, count, problems, onPick) {
  count.textContent = String(problems.length);
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length - shown.length;
  list.innerHTML = problems.length
    ? shown
        .map((p, i) => `<li class="${p.severity}"><button type="button" data-index="${i}"><span class="sev">${esc(p.severity)}</span> ` +
          `<span class="where">${p.line ? `line ${p.line}${p.column ? `:${p.column}` : ""}` : ""}</span> ${esc(p.title)}</button>${p.fix ? `<p class="fix">fix: ${esc(p.fix)}</p>` : ""}</li>`)
        .join("") + (more > 0 ? `<li class="more">and ${more} more, each marked in the editor's gutter</li>` : "")
    : `<li class="none">No problems: the apiserver would accept these objects and nothing looks wrong.</li>`;
  list.onclick = (event) => {
    const button = event.target.closest("button[data-index]");
    if (button) onPick(Number(button.dataset.index));
  };
}

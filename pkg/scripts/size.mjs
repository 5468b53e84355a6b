// Where the bytes of a .wasm go: twiggy's items grouped by the crate that owns them (from the
// demangled names the module keeps), the generic functions with the most copies, then the
// largest items. Used by `make size`.
// Usage: node size.mjs TWIGGY MODULE.wasm [TOP]
import { execFileSync } from "node:child_process";

const [twiggy, wasm, top = "12"] = process.argv.slice(2);
const csv = execFileSync(twiggy, ["top", "-n", "1000000", "--format", "csv", wasm], {
  encoding: "utf8",
  maxBuffer: 256 << 20,
});

// `Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent`; names may hold commas,
// so the numbers are read from the end. Custom sections (names, producers, wasm-bindgen's) are left
// out: the shipped module does not carry them.
const items = csv
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [, , , size, ...name] = line.split(",").reverse();
    return { name: name.reverse().join(",").replace(/^"|"$/g, "").replaceAll('""', '"'), size: Number(size) };
  })
  .filter((i) => Number.isFinite(i.size) && !/subsection|custom section/.test(i.name));

/** The crate an item belongs to: the first path segment of its name, or what kind of item it is. */
function owner(name) {
  if (/^data\[\d+\]$|^data segment/.test(name)) return "(data: strings, tables)";
  if (/^(code|func)\[\d+\]$/.test(name)) return "(unnamed code)";
  if (/^(type|import|export|table|elem|global|memory)\[|^"?(name|producers|custom)/.test(name) || /section/.test(name)) {
    return "(wasm structure)";
  }
  // `core[c5930c85a12de822]::num::...`, `<serde_json::Value as ...>::...`, `<u128>::fmt`.
  let trimmed = name.replace(/^[<&*\s(]*(dyn |mut )*/, "");
  // `<f64 as core::str::FromStr>::from_str`: a primitive's trait impl belongs to the trait's crate.
  trimmed = trimmed.replace(/^[A-Za-z0-9_]+ as /, "");
  if (trimmed.startsWith("__")) return "(runtime: wasm-bindgen, compiler builtins)";
  if (/^(u|i)(8|16|32|64|128|size)>|^(f32|f64|char|bool|str)>/.test(trimmed)) return "core";
  const path = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/.exec(trimmed);
  return path ? path[1] : "(other)";
}

const total = items.reduce((sum, i) => sum + i.size, 0);
const byCrate = new Map();
for (const i of items) byCrate.set(owner(i.name), (byCrate.get(owner(i.name)) ?? 0) + i.size);
const rows = [...byCrate].sort((a, b) => b[1] - a[1]);
const kb = (n) => (n / 1024).toFixed(1);
console.log(`${wasm}: ${kb(total)} KiB in ${items.length} items`);
console.log("| owner | KiB | share |\n|---|---:|---:|");
for (const [name, size] of rows.slice(0, Number(top))) console.log(`| ${name} | ${kb(size)} | ${((size * 100) / total).toFixed(1)}% |`);
const rest = rows.slice(Number(top)).reduce((sum, [, size]) => sum + size, 0);
if (rest) console.log(`| (${rows.length - Number(top)} more) | ${kb(rest)} | ${((rest * 100) / total).toFixed(1)}% |`);
// Generic code is copied per type and per closure, and legacy symbol names carry neither: the
// functions with the most copies (same path, different hash) show where monomorphisation weighs.
const copies = new Map();
for (const i of items) {
  const path = i.name.replace(/\[[0-9a-f]{16}\]/g, "").replace(/::h[0-9a-f]{16}$/, "");
  const c = copies.get(path) ?? { n: 0, size: 0 };
  copies.set(path, { n: c.n + 1, size: c.size + i.size });
}
console.log("\nmost-copied generic functions (copies, KiB):");
for (const [path, c] of [...copies].filter(([, c]) => c.n > 1).sort((a, b) => b[1].size - a[1].size).slice(0, 8)) {
  console.log(`  ${String(c.n).padStart(4)} ${kb(c.size).padStart(7)} KiB  ${path.slice(0, 100)}`);
}
console.log("\nlargest items:");
for (const i of [...items].sort((a, b) => b.size - a.size).slice(0, 8)) console.log(`  ${kb(i.size).padStart(7)} KiB  ${i.name.slice(0, 110)}`);

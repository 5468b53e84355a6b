#!/usr/bin/env python3
"""`make bench-envoy` (second part): what a configuration push costs through ECDS, in a real Envoy.

For each table size (paths over 10 hosts, as bench.py generates them), two tables alternate: the
second adds one Exact path `/reload-marker` to another backend. Each reload writes the other one
into the ECDS file (atomically) and polls that path until the answer shows the new table. Reported:
the ECDS resource's size, the time from the write to the first request the new table answers
(median and max), for 1 and 2 worker threads (every worker VM compiles the table), the memory a
worker adds at that size (RSS with 2 workers minus with 1), and Envoy's RSS across the reloads (it
must stay flat: the run fails if it grows by more than a quarter plus 8 MiB).

Each row is measured twice, alternately: the filter given the manifests (`envoy-config`), and the
same filter given the precompiled table (`envoy-config --table`: each VM only loads it), and with
`--table-wasm` the table-only build (the filter without its `manifests` feature) given the table.

Ends with one line per table size, `envoy: PATHS paths: worker MIB MiB, configure MS ms/VM, push MS ms`:
the memory a worker adds, on_configure per VM (median, 1 worker), write → new table (median, 2 workers),
for the manifests; the same for the table on lines that start `envoy-table:` (`envoy-table-only:`).

Usage: reload.py --wasm FILTER.wasm [--table-wasm TABLE_ONLY.wasm] [--paths 10 10000] [--reloads 100]
                 [--also NAME=WASM] [--no-table]
"""

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from bench import manifests  # noqa: E402
from harness import Dynamic, Envoys, raw_request  # noqa: E402

MARKER = "/reload-marker"


def tables(paths, workdir):
    """The two manifests that alternate: the generated table, and the same plus the marker path."""
    manifest, _ = manifests(paths, workdir)
    with open(manifest) as f:
        docs = json.load(f)
    marker = json.loads(json.dumps(docs))
    marker[0]["spec"]["rules"][0]["http"]["paths"].append(
        {"path": MARKER, "pathType": "Exact", "backend": {"service": {"name": "marker", "port": {"number": 80}}}})
    out = []
    for name, value in (("a", docs), ("b", marker)):
        path = os.path.join(workdir, f"reload-{paths}-{name}.json")
        with open(path, "w") as f:
            json.dump(value, f)
        out.append(path)
    return out, docs[0]["spec"]["rules"][0]["host"]


def run(wasm, extra, paths, reloads, workers, workdir, envoys):
    (plain, marked), host = tables(paths, workdir)
    clusters = ["bench/backend:80", "bench/marker:80"]
    stand_in = envoys.start(f"reload-up-{paths}-{workers}", harness.stand_in_config(clusters, 0, 0), workdir).wait_ready()
    upstream = stand_in.listener_port()
    configs = [harness.envoy_config([m], wasm, 0, 0, upstream, extra) for m in (plain, marked)]
    template = configs[1]["static_resources"]["clusters"]
    for c in configs:
        c["static_resources"]["clusters"] = template  # both clusters known from the start
    dynamic = Dynamic(os.path.join(workdir, f"reload-{paths}-{workers}"))
    envoy = envoys.start(f"reload-{paths}-{workers}", dynamic.bootstrap(configs[0]), workdir, concurrency=workers,
                         extra=["--component-log-level", "wasm:info"])
    harness.wait_listening(envoy.wait_ready(timeout=120), timeout=120)
    port = envoy.listener_port()
    size = os.path.getsize(dynamic.ecds)
    latencies, rss = [], [envoy.rss_kb()]
    for i in range(1, reloads + 1):
        config = configs[i % 2]
        want = "marker:80" if i % 2 else "404"
        start = time.monotonic()
        dynamic.push(config, clusters=False)
        while True:
            status, _, body = raw_request(port, host, MARKER)
            if (body if status == 200 else str(status)) == want:
                break
            if time.monotonic() - start > 60:
                raise RuntimeError(f"reload {i} at {paths} paths not served after 60 s:\n{envoy.log_text()[-2000:]}")
            time.sleep(0.002)
        latencies.append((time.monotonic() - start) * 1000)
        rss.append(envoy.rss_kb())
    failures = envoy.stat(harness.ECDS_STATS + "update_rejected")
    # Each VM (the main thread's, then each worker's) logs what its configuration cost it.
    configured = [(int(total), int(read)) for total, read in
                  re.findall(r"configured in (\d+) ms \(\d+ bytes, (\d+) ms of them reading", envoy.log_text())]
    # A VM's linear memory never shrinks: its largest is the high-water mark of configuring plus the table.
    memory = max((int(k) for k in re.findall(r"the VM's memory (\d+) KiB", envoy.log_text())), default=0)
    envoy.stop()
    stand_in.stop()
    envoys.started.remove(envoy)
    envoys.started.remove(stand_in)
    return {"size": size, "latencies": latencies, "rss": rss, "rejected": failures, "configured": configured, "memory": memory}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--paths", type=int, nargs="+", default=[10, 10000])
    parser.add_argument("--reloads", type=int, default=100)
    parser.add_argument("--also", action="append", default=[], metavar="NAME=WASM",
                        help="another build of the filter, measured alternately with this one (each row's "
                             "runs take turns, the order reversed from one worker count to the next)")
    parser.add_argument("--no-table", action="store_true", help="measure the manifests only, not the table too")
    parser.add_argument("--table-wasm", help="the table-only filter (built without `manifests`), measured with the table")
    args = parser.parse_args()
    # Each build: its filter and what envoy-config is given beside the manifests.
    builds = {"filter": (os.path.abspath(args.wasm), [])}
    if not args.no_table:
        builds["table"] = (os.path.abspath(args.wasm), ["--table"])
        if args.table_wasm:
            builds["table-only"] = (os.path.abspath(args.table_wasm), ["--table"])
    builds.update((name, (os.path.abspath(wasm), [])) for name, wasm in (a.split("=", 1) for a in args.also))
    workdir = tempfile.mkdtemp(prefix="ingress-router-reload-")
    envoys = Envoys()
    rows, growth, summary = [], [], {name: [] for name in builds}
    try:
        for paths in args.paths:
            result = {name: {} for name in builds}
            for workers in (1, 2):
                order = list(builds) if workers == 1 else list(reversed(builds))
                for name in order:
                    wasm, extra = builds[name]
                    result[name][workers] = run(wasm, extra, paths, args.reloads, workers, workdir, envoys)
                    r = result[name][workers]
                    print(f"  {name + ', ' if len(builds) > 1 else ''}{paths} paths, {workers} worker(s): "
                          f"{len(r['latencies'])} reloads, RSS {r['rss'][0] // 1024} -> "
                          f"{r['rss'][len(r['rss']) // 10] // 1024} -> {r['rss'][-1] // 1024} MiB", flush=True)
                    if r["rejected"]:
                        growth.append(f"{name}, {paths} paths: {r['rejected']} reloads rejected")
                    first, last = r["rss"][1], r["rss"][-1]
                    if last > first * 1.25 + 8 * 1024:
                        growth.append(f"{name}, {paths} paths, {workers} workers: RSS {first} -> {last} KiB over "
                                      f"{args.reloads} reloads")
            for name in builds:
                one, two = result[name][1], result[name][2]
                med = lambda r: statistics.median(r["latencies"])
                configure = statistics.median(t for t, _ in one["configured"]) if one["configured"] else float("nan")
                read = statistics.median(r for _, r in one["configured"]) if one["configured"] else float("nan")
                vms = len(one["configured"]) / (args.reloads + 1)
                worker = (two["rss"][1] - one["rss"][1]) / 1024
                build = f" {name} |" if len(builds) > 1 else ""
                rows.append(f"|{build} {paths} | {one['size']:,} | {med(one):.0f} | {max(one['latencies']):.0f} | "
                            f"{med(two):.0f} | {max(two['latencies']):.0f} | {configure:.0f} ({read:.0f}) | "
                            f"{vms:.1f} | {worker:.1f} | {one['memory'] / 1024:.1f} | {one['rss'][1] / 1024:.0f} → {one['rss'][-1] / 1024:.0f} |")
                summary[name].append(f"{paths} paths: worker {worker:.1f} MiB, configure {configure:.0f} ms/VM, "
                                     f"push {med(two):.0f} ms")
    finally:
        envoys.stop_all()
    print()
    print(f"ECDS reloads, {args.reloads} per row, alternating two tables; times from the write to the first request "
          "the new table answers")
    print()
    build = " build |" if len(builds) > 1 else ""
    print(f"|{build} paths | ECDS resource bytes | 1 worker: median ms | max ms | 2 workers: median ms | max ms "
          "| on_configure per VM, median ms (reading the configuration) | VMs configured per reload, 1 worker "
          "| MiB per extra worker | a VM's linear memory, largest, MiB | RSS MiB, 1 worker, after reload 1 → last |")
    print("|---|" if len(builds) > 1 else "|", end="")
    print("---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    if growth:
        print("\nFAILED: " + "; ".join(growth))
        return 1
    # The summary, one line per table size: the memory a worker adds (RSS with 2 workers minus 1),
    # on_configure per VM (median), and a push through ECDS to the new table served with 2 workers
    # (median); this build's last.
    print()
    for name in [*builds][1:]:
        for line in summary[name]:
            print(f"{'envoy-' + name if name in ('table', 'table-only') else name}: {line}")
    for line in summary["filter"]:
        print(f"envoy: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

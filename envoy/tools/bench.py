#!/usr/bin/env python3
"""`make bench-envoy`: wrk on loopback against front Envoys, alternated round by round in one run,
at 10 and 1 000 paths:

- native: Envoy's own routes from `envoy-config --native`;
- (a) noop: the no-op proxy-wasm filter, one fixed route: what any proxy-wasm filter costs;
- read: the no-op filter reading `:authority` and `:path` (fixed route);
- read+set: reading them and setting the routing header to one fixed cluster, no route-cache
  clearing (the route reads the header with `cluster_header`);
- (b) control: reading, setting the header and clearing the route cache: exactly the filter's host
  calls, no lookup;
- (c) filter: the ingress-router filter.

Reports throughput, front-Envoy CPU microseconds per request (utime+stime from /proc/<pid>/stat),
each step's CPU over the one before it (the cost of one host call), (c) − (b) (what the lookup
and the filter's own work add), memory per worker at 1 000 paths and the .wasm size. On a shared
2-core machine absolute numbers move; compare the differences and ratios, taken per round (the
fronts measured one after another) and then their median.

Usage: bench.py --wasm FILTER.wasm --noop-wasm NOOP.wasm [--rounds 5] [--seconds 4] [--nginx]
"""

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Envoys, raw_request  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def manifests(paths, workdir):
    """`paths` paths (two Prefix to one Exact) over 10 hosts, one Ingress per host. Every path has
    the same backend: the three fronts then use one upstream cluster alike, and differ only in how
    they choose it."""
    hosts = 10
    docs, requests = [], []
    per_host = max(1, paths // hosts)
    for h in range(hosts):
        host = f"h{h}.bench.example.com"
        entries = []
        for p in range(per_host):
            path = f"/api/v{p % 7}/res{p}"
            entries.append({"path": path, "pathType": "Prefix" if p % 3 else "Exact",
                            "backend": {"service": {"name": "backend", "port": {"number": 80}}}})
            requests.append((host, path + ("/item/42" if p % 3 else "")))
        docs.append({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
                     "metadata": {"name": f"app{h}", "namespace": "bench"},
                     "spec": {"rules": [{"host": host, "http": {"paths": entries}}]}})
    path = os.path.join(workdir, f"bench-{paths}.json")
    with open(path, "w") as f:
        json.dump(docs, f)
    random.Random(paths).shuffle(requests)
    return path, requests[:200]


def wrk_script(requests, workdir, name, pipeline):
    """Requests in turn from the list, `pipeline` at a time on each connection: fewer system calls
    per request, so the front's CPU per request is more of the request's own work."""
    path = os.path.join(workdir, f"{name}.lua")
    items = ",\n".join(f'{{"{h}", "{p}"}}' for h, p in requests)
    with open(path, "w") as f:
        f.write(f"""local reqs = {{
{items}
}}
local i = 0
request = function()
  local batch = {{}}
  for n = 1, {pipeline} do
    i = i % #reqs + 1
    batch[n] = wrk.format("GET", reqs[i][2], {{["Host"] = reqs[i][1]}})
  end
  return table.concat(batch)
end
""")
    return path


def stand_in(listen, admin):
    """The fastest upstream: 200 for everything, from a direct_response."""
    config = harness.stand_in_config([], listen, admin)
    vh = config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]["route_config"]["virtual_hosts"][0]
    vh["routes"] = [{"match": {"prefix": "/"}, "direct_response": {"status": 200, "body": {"inline_string": "ok"}}}]
    vh.pop("response_headers_to_add")
    return config


# The no-op filter's configuration for each baseline front (envoy/src/noop.rs).
BASELINES = {
    "noop": {},
    "read": {"readHeaders": True},
    "read+set": {"readHeaders": True, "fixedCluster": None},
    "control": {"readHeaders": True, "fixedCluster": None, "clearRouteCache": True},
}
# Baselines that route by the header they set, through the route's cluster_header; the others
# get one fixed route.
ROUTE_BY_HEADER = ("read+set", "control")
# Each step over the one before it: the cost of one host call.
STEPS = [("read", "noop"), ("read+set", "read"), ("control", "read+set"), ("filter", "control")]


def variants(manifest, wasm, noop_wasm, upstream, others=()):
    """Front configurations by name; `others`: (name, wasm) filter builds to compare as well."""
    out = {}
    builds = {"native": wasm, **{name: noop_wasm for name in BASELINES}, "filter": wasm, **dict(others)}
    for name, build in builds.items():
        extra = {"native": ["--native"], "ingress-nginx": ["--profile", "ingress-nginx"]}.get(name, [])
        config = harness.envoy_config([manifest], build, 0, 0, upstream, extra)
        hcm = config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
        cluster = config["static_resources"]["clusters"][0]["name"]
        if (name in BASELINES and name not in ROUTE_BY_HEADER) or name.startswith("fixed-"):
            hcm["route_config"]["virtual_hosts"][0]["routes"] = [{"match": {"prefix": "/"}, "route": {"cluster": cluster}}]
        if name in BASELINES:
            steps = {k: (cluster if k == "fixedCluster" else v) for k, v in BASELINES[name].items()}
            plugin = hcm["http_filters"][0]["typed_config"]["config"]["configuration"]
            plugin["value"] = json.dumps(steps)
        out[name] = config
    return out


def wrk(port, script, seconds, connections):
    result = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", script,
                             f"http://127.0.0.1:{port}/"], capture_output=True, text=True)
    requests = int(re.search(r"(\d+) requests in", result.stdout).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", result.stdout)
    return requests, int(non2xx.group(1)) if non2xx else 0


def measure(envoy, port, script, seconds, connections):
    ticks = envoy.cpu_ticks()
    start = time.time()
    requests, bad = wrk(port, script, seconds, connections)
    elapsed = time.time() - start
    cpu_us = (envoy.cpu_ticks() - ticks) / TICK * 1e6
    return {"rps": requests / elapsed, "cpu_us": cpu_us / max(requests, 1), "bad": bad}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--noop-wasm", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--pipeline", type=int, default=8, help="requests per batch on a connection")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--paths", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--also", action="append", default=[], metavar="NAME=WASM",
                        help="another build of the filter to measure alongside (experiments); a NAME "
                             "starting with fixed- gets the no-op filter's fixed route")
    parser.add_argument("--nginx", action="store_true",
                        help="also the filter with the ingress-nginx profile (front named ingress-nginx)")
    args = parser.parse_args()
    wasm, noop = os.path.abspath(args.wasm), os.path.abspath(args.noop_wasm)
    if args.nginx:
        args.also.append(f"ingress-nginx={wasm}")
    workdir = tempfile.mkdtemp(prefix="ingress-router-bench-")
    envoys = Envoys()
    lines, memory = [], {}
    try:
        upstream = envoys.start("upstream", stand_in(0, 0), workdir).wait_ready().listener_port()
        for paths in args.paths:
            manifest, requests = manifests(paths, workdir)
            script = wrk_script(requests, workdir, f"requests-{paths}", args.pipeline)
            fronts = {}
            others = [tuple(a.split("=", 1)) for a in args.also]
            for name, config in variants(manifest, wasm, noop, upstream, others).items():
                envoy = envoys.start(f"{name}-{paths}", config, workdir).wait_ready()
                port = envoy.listener_port()
                host, path = requests[0]
                status, _, _ = raw_request(port, host, path)
                if status != 200:
                    raise RuntimeError(f"{name} at {paths} paths answers {status} for {host}{path}")
                fronts[name] = (envoy, port)
            results = {name: [] for name in fronts}
            for r in range(args.rounds):
                order = list(fronts) if r % 2 == 0 else list(reversed(fronts))
                for name in order:
                    envoy, port = fronts[name]
                    results[name].append(measure(envoy, port, script, args.seconds, args.connections))
            med = {n: {k: statistics.median(m[k] for m in rs) for k in ("rps", "cpu_us")} for n, rs in results.items()}
            bad = {n: sum(m["bad"] for m in rs) for n, rs in results.items()}
            # Differences and ratios per round (same moment, same machine load), then their median.
            ratio = lambda a, b: statistics.median(x["rps"] / y["rps"] for x, y in zip(results[a], results[b]))
            extra = lambda a, b: statistics.median(x["cpu_us"] - y["cpu_us"] for x, y in zip(results[a], results[b]))
            names = ["native", *BASELINES, "filter"]
            lines.append(f"| {paths} | " + " | ".join(f"{med[n]['rps']:.0f}" for n in names) + " | "
                         + " | ".join(f"{med[n]['cpu_us']:.1f}" for n in names) + " | "
                         + " | ".join(f"{extra(a, b):+.2f}" for a, b in STEPS) + " | "
                         + f"{extra('control', 'noop'):+.2f} | {ratio('filter', 'noop'):.3f}x | "
                         + f"{ratio('filter', 'control'):.3f}x | {ratio('filter', 'native'):.3f}x |")
            print(lines[-1], f"(non-2xx: {bad})", flush=True)
            if any(bad.values()):
                raise RuntimeError(f"non-2xx answers at {paths} paths: {bad}")
            for name in results:
                if name not in names:
                    print(f"  {name}: {med[name]['rps']:.0f} req/s, {med[name]['cpu_us']:.1f} µs/req, "
                          f"{extra(name, 'noop'):+.2f} µs/req over no-op, {extra(name, 'control'):+.2f} over control, "
                          f"{ratio(name, 'noop'):.3f}x no-op throughput")
            if paths == 1000 and not args.skip_memory:
                memory = per_worker_memory(envoys, workdir, {n: c for n, c in variants(manifest, wasm, noop, upstream).items()
                                                              if n in ("native", "noop", "filter")}, requests)
            for envoy, _ in fronts.values():
                envoy.stop()
    finally:
        envoys.stop_all()
    print()
    names = ["native", *BASELINES, "filter"]
    print("| paths | " + " | ".join(f"{n} req/s" for n in names) + " | " + " | ".join(f"{n} µs/req" for n in names)
          + " | " + " | ".join(f"{a} − {b} µs" for a, b in STEPS)
          + " | (b) − (a): control − noop µs | (c)/(a) throughput | (c)/(b) throughput | filter / native throughput |")
    print("|---:|" + "---:|" * (2 * len(names) + len(STEPS) + 4))
    print("\n".join(lines))
    print()
    for name, kb in memory.items():
        print(f"memory per worker at 1 000 paths, {name}: {kb / 1024:.1f} MiB (RSS with 2 workers minus with 1)")
    print(f".wasm size: {os.path.getsize(wasm)} bytes (no-op filter: {os.path.getsize(noop)} bytes)")
    return 0


def per_worker_memory(envoys, workdir, configs, requests):
    """RSS with two workers minus RSS with one, each after every worker served requests."""
    out = {}
    for name, config in configs.items():
        rss = []
        for workers in (1, 2):
            envoy = envoys.start(f"mem-{name}-{workers}", config, workdir, concurrency=workers).wait_ready()
            port = envoy.listener_port()
            for host, path in requests[:50] * 2:
                raw_request(port, host, path)
            time.sleep(0.5)
            rss.append(envoy.rss_kb())
            envoy.stop()
            envoys.started.remove(envoy)
        out[name] = rss[1] - rss[0]
    return out


if __name__ == "__main__":
    sys.exit(main())

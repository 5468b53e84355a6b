#!/usr/bin/env python3
"""`make envoy-demo`: Envoy on 127.0.0.1:10000 routing with the filter, stand-in backends that
answer `<service>:<port>` or `resource:<apiGroup>/<Kind>/<name>`, and live reload: every edit of the
manifests is regenerated with `ingress-router envoy-config` and moved into Envoy's watched files:
the filter's configuration through ECDS (the listener and its connections untouched), the clusters
through CDS; a rejected edit prints why and the previous table keeps serving. Ctrl-C stops everything.

Usage: demo.py --wasm FILTER.wasm MANIFESTS... [--port 10000]
"""

import argparse
import os
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Dynamic, Envoys, free_port, stand_in_config  # noqa: E402


def files_of(manifests):
    """Every manifest file, with its modification time: a change to any of them reloads."""
    found = []
    for m in manifests:
        if os.path.isdir(m):
            for root, _, names in os.walk(m):
                found += [os.path.join(root, n) for n in names if n.endswith((".yaml", ".yml", ".json"))]
        else:
            found.append(m)
    return {f: os.stat(f).st_mtime_ns for f in found if os.path.exists(f)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--port", type=int, default=10000)
    parser.add_argument("manifests", nargs="+")
    args = parser.parse_args()
    wasm = os.path.abspath(args.wasm)
    workdir = tempfile.mkdtemp(prefix="ingress-router-demo-")
    envoys = Envoys()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started in the background
    try:
        admin, upstream, stand_in_admin = free_port(), free_port(), free_port()
        generate = lambda: harness.envoy_config(args.manifests, wasm, args.port, admin, upstream, ["--debug-header"])
        config = generate()
        clusters = [c["name"] for c in config["static_resources"]["clusters"]]
        stand_in = start_stand_in(envoys, clusters, upstream, stand_in_admin, workdir)
        stand_in.serving = config["static_resources"]["clusters"]
        dynamic = Dynamic(os.path.join(workdir, "xds"))

        front = harness.wait_listening(envoys.start("front", dynamic.bootstrap(config), workdir).wait_ready())
        print(f"Envoy with the ingress-router filter on http://127.0.0.1:{args.port} (admin 127.0.0.1:{admin});"
              f" stand-in backends on 127.0.0.1:{upstream}. Logs: {workdir}")
        print(f"  curl -si -H 'Host: shop.example.com' 127.0.0.1:{args.port}/cart")
        print(f"Edit {' '.join(args.manifests)} and save: Envoy reloads within a second. Ctrl-C stops everything.")
        seen = files_of(args.manifests)
        while True:
            time.sleep(0.2)
            now = files_of(args.manifests)
            if now == seen:
                continue
            seen = now
            stand_in = reload(front, dynamic, generate, stand_in, envoys, workdir)
    except KeyboardInterrupt:
        print("\nstopping")
    finally:
        envoys.stop_all()
    return 0


def reload(front, dynamic, generate, stand_in, envoys, workdir):
    """Pushes the edited manifests; returns the stand-in (restarted when the clusters changed).

    Clusters are added before the listener and removed only once Envoy accepted it: whether the
    edit is accepted or rejected, the table serving always finds its clusters."""
    try:
        config = generate()
    except RuntimeError as e:
        print(f"edit not applied, the previous table keeps serving:\n{e}")
        return stand_in
    new = {c["name"]: c for c in config["static_resources"]["clusters"]}
    union = {**{c["name"]: c for c in stand_in.serving}, **new}
    if sorted(union) != stand_in.clusters:
        stand_in = restart_stand_in(envoys, stand_in, sorted(union), workdir)
    before = harness.counters(front)
    log_start = len(front.log_text())
    dynamic.push_clusters(list(union.values()))
    # An edit of the manifests changes the filter's configuration alone: ECDS swaps it in place.
    written = dynamic.push(config, clusters=False)
    try:
        applied = harness.wait_applied(front, written, before, timeout=5) if written else True
    except RuntimeError:
        print("no answer from Envoy within 5 s; see the logs")
        return stand_in
    if not applied:
        reasons = [line for line in front.log_text()[log_start:].splitlines() if "wasm log" in line and "error" in line]
        print("edit rejected by Envoy, the previous table keeps serving:")
        for line in reasons:
            print("  " + line.split("ingress-router: ", 1)[-1])
        return stand_in
    dynamic.push_clusters(list(new.values()))
    stand_in.serving = list(new.values())
    print(f"{time.strftime('%H:%M:%S')} reloaded ({len(new)} clusters, {' and '.join(written) or 'nothing'} changed)")
    return stand_in


def restart_stand_in(envoys, stand_in, clusters, workdir):
    serving = stand_in.serving
    stand_in.stop()
    envoys.started.remove(stand_in)
    stand_in = start_stand_in(envoys, clusters, stand_in.upstream, stand_in.admin_port, workdir)
    stand_in.serving = serving
    return stand_in


def start_stand_in(envoys, clusters, upstream, admin, workdir):
    """The stand-in backends for these cluster names; `serving`: the clusters of the table Envoy serves."""
    stand_in = envoys.start("stand-in", stand_in_config(clusters, upstream, admin), workdir)
    stand_in.clusters = sorted(clusters)
    stand_in.upstream, stand_in.admin_port = upstream, admin
    stand_in.serving = []
    return stand_in.wait_ready()


if __name__ == "__main__":
    sys.exit(main())

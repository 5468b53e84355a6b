#!/usr/bin/env python3
"""Issue 28 in a real Envoy: one tenant's regexes must not stall another tenant's traffic.

One Envoy with ONE worker (`--concurrency 1`: every request shares the one event loop, as the
issue's stalled tenants did) and the listener's largest request headers (`max_request_headers_kb:
60`), configured by `ingress-router envoy-config` with:

- a hostile tenant (namespace tenant-a) matching every host (two HTTPRoutes: at most 16 rules each): the issue's pattern
  `(?:[a-z/]{0,100}){0,1000}` (45 s on an 8 KB path before; now refused by the size limit, so it
  matches nothing) and 16 patterns `(.*a){20}x0` .. `x15` that compile under the limit but read
  the whole path, so that a 58 KB path spends the request's scan budget (`regexLimits.scan`);
- another namespace (tenant-b) with a plain route, `/good` on good.example.com.

Variants: the Gateway API (an HTTPRoute with no hostnames and `RegularExpression` path matches)
and the ingress-nginx profile (a `use-regex` Ingress with no host: the catch-all server).

Checks, per variant:

(a) hostile requests (58 KB paths, another host) are answered 404 at once, never stalled nor
    503; Envoy's log holds the filter's warning naming `regexLimits.scan` and the request, and
    the `ingress_router.regex_budget_exhausted` counter counts every one; the hostile tenant's
    routes still work for a path they can afford (200 from its upstream);
(b) while client threads keep sending hostile requests, 50 requests to good.example.com/good are
    each answered 200 by tenant-b's upstream in under 1 s (before the fix they waited ~45 s behind
    a hostile request). Their median and p99 are printed, with and without the hostile load.

Loopback only: the upstreams are threads of this process; Envoy is stopped by its PID.

Usage: e2e_hostile.py --wasm FILTER.wasm [--good-requests 50] [--hostile-threads 2]
"""

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import ROUTING_HEADER, Envoys, cli, raw_request  # noqa: E402

ISSUE_PATTERN = "(?:[a-z/]{0,100}){0,1000}"
FULL_SCANS = [f"(.*a){{20}}x{i}" for i in range(16)]
GOOD_HOST = "good.example.com"
HOSTILE_HOST = "hostile.example.org"
# A 58 KB path: with the request line and headers, just under the listener's 60 KiB.
PATH_BYTES = 58 * 1024
GOOD_LIMIT_S = 1.0
WARNING = "regex budget exhausted (regexLimits.scan): some "

failures = []


def check(condition, what):
    if condition:
        return True
    failures.append(what)
    print(f"  FAIL {what}")
    return False


def hostile_path():
    path = "/"
    while len(path) < PATH_BYTES:
        path += "abcdefghijklmnopqrstuvwxyz/"
    return path[:PATH_BYTES]


def upstream(name):
    """An upstream answering 200 with its own name and the cluster the filter chose."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # The head and the body are two writes: without this, Nagle's algorithm and the proxy's
        # delayed ACK add 40 ms to every answer, which would hide what is measured here.
        disable_nagle_algorithm = True

        def do_GET(self):
            body = json.dumps({"upstream": name, "cluster": self.headers.get(ROUTING_HEADER)}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def gateway_manifests():
    def rules(patterns):
        return [{"matches": [{"path": {"type": "RegularExpression", "value": p}}],
                 "backendRefs": [{"name": "evil", "port": 80}]} for p in patterns]

    def hostile(name, patterns):
        # No hostnames: every host of the listener meets these rules.
        return {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
                "metadata": {"name": name, "namespace": "tenant-a"},
                "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "rules": rules(patterns)}}

    return [
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw", "namespace": "infra"},
         "spec": {"gatewayClassName": "envoy", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP",
                                                              "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
        # Two routes: the apiserver takes at most 16 rules in one.
        hostile("evil-size", [ISSUE_PATTERN]),
        hostile("evil-scan", FULL_SCANS),
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "good", "namespace": "tenant-b"},
         "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "hostnames": [GOOD_HOST],
                  "rules": [{"matches": [{"path": {"type": "PathPrefix", "value": "/good"}}],
                             "backendRefs": [{"name": "good", "port": 80}]}]}},
    ]


def nginx_manifests():
    def path(p, kind="ImplementationSpecific", service="evil"):
        return {"path": p, "pathType": kind, "backend": {"service": {"name": service, "port": {"number": 80}}}}

    return [
        # No host: the catch-all server, which every other host reaches.
        {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
         "metadata": {"name": "evil", "namespace": "tenant-a",
                      "annotations": {"nginx.ingress.kubernetes.io/use-regex": "true"}},
         "spec": {"ingressClassName": "nginx", "rules": [{"http": {"paths": [
             path("/" + ISSUE_PATTERN), *[path("/" + p) for p in FULL_SCANS]]}}]}},
        {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "good", "namespace": "tenant-b"},
         "spec": {"ingressClassName": "nginx", "rules": [{"host": GOOD_HOST, "http": {"paths": [
             path("/good", "Prefix", "good")]}}]}},
    ]


VARIANTS = {
    # name: (manifests, envoy-config flags, the regexes the warning names, a path the hostile tenant's
    # regexes can afford and match)
    "gateway": (gateway_manifests, ["--gateway", "infra/gw"], "some regexes answered no match", "/aaaaaaaaaaaaaaaaaaaax3"),
    "ingress-nginx": (nginx_manifests, ["--profile", "ingress-nginx"], "some regexes answered no match",
                      "/aaaaaaaaaaaaaaaaaaaax3"),
}


def configure(variant, wasm, workdir, upstreams):
    """envoy-config's bootstrap, each cluster pointed at its tenant's upstream, and the listener
    taking Envoy's largest request headers."""
    manifests, flags, _, _ = VARIANTS[variant]
    manifest = os.path.join(workdir, f"{variant}.json")
    with open(manifest, "w") as f:
        json.dump(manifests(), f)
    placeholder = upstreams["good"].server_address[1]
    config = json.loads(cli("envoy-config", "--wasm", wasm, "-f", manifest, "--upstream", f"127.0.0.1:{placeholder}",
                            "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", *flags).stdout)
    names = []
    for cluster in config["static_resources"]["clusters"]:
        tenant = "good" if cluster["name"].startswith("tenant-b/") else "evil"
        names.append(cluster["name"])
        address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]["socket_address"]
        address["port_value"] = upstreams[tenant].server_address[1]
    check(sorted(names) == ["tenant-a/evil:80", "tenant-b/good:80"], f"{variant}: the clusters {names}")
    for listener in config["static_resources"]["listeners"]:
        for chain in listener["filter_chains"]:
            for f in chain["filters"]:
                f["typed_config"]["max_request_headers_kb"] = 60
    return config


def timed(port, host, path, timeout=30):
    """(status, headers, body, seconds); status 0 when no answer came (a stall or a reset)."""
    started = time.monotonic()
    try:
        status, headers, body = raw_request(port, host, path, timeout=timeout)
    except OSError as e:
        status, headers, body = 0, {}, repr(e)
    return status, headers, body, time.monotonic() - started


def percentile(values, p):
    """Nearest rank: of 50 values, p99 is the largest."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def good_requests(variant, port, n):
    """n requests to the good tenant, one after another: their latencies."""
    latencies = []
    for i in range(n):
        status, _, body, seconds = timed(port, GOOD_HOST, f"/good/{i}")
        seen = json.loads(body) if status == 200 else {}
        check(status == 200 and seen.get("upstream") == "good" and seen.get("cluster") == "tenant-b/good:80",
              f"{variant}: good request {i}: 200 from tenant-b's upstream, got {status} {body[:120]!r}")
        check(seconds < GOOD_LIMIT_S, f"{variant}: good request {i} took {seconds:.3f}s (limit {GOOD_LIMIT_S}s)")
        latencies.append(seconds)
    return latencies


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def run_variant(variant, wasm, workdir, args, upstreams, envoys):
    _, _, regexes, affordable = VARIANTS[variant]
    print(f"{variant}: one worker, a hostile tenant's regexes on every host, another tenant's /good")
    config = configure(variant, wasm, workdir, upstreams)
    envoy = envoys.start(f"hostile-{variant}", config, workdir, concurrency=1)
    harness.wait_listening(envoy.wait_ready())
    port = envoy.listener_port()
    path = hostile_path()
    sent = 0

    # The hostile tenant's routes serve what they can afford; the issue's pattern is refused
    # (it would match /abc), so it matches nothing.
    status, _, body, _ = timed(port, HOSTILE_HOST, affordable)
    check(status == 200 and json.loads(body).get("upstream") == "evil",
          f"{variant}: {affordable} reaches the hostile tenant's upstream ({status} {body[:120]!r})")
    status, _, _, _ = timed(port, HOSTILE_HOST, "/abc")
    check(status == 404, f"{variant}: the refused pattern matches nothing (/abc: {status})")

    # (a) Hostile requests alone: answered 404 at once, logged, counted.
    hostile = []
    for _ in range(10):
        status, headers, body, seconds = timed(port, HOSTILE_HOST, path)
        sent += 1
        check(status == 404, f"{variant}: a hostile request is answered 404, got {status} {body[:120]!r}")
        hostile.append(seconds)
    check(max(hostile) < GOOD_LIMIT_S, f"{variant}: hostile requests answered in {ms(max(hostile))} at most")
    print(f"  (a) 10 hostile requests ({len(path)}-byte paths): 404 each, median {ms(statistics.median(hostile))}, "
          f"max {ms(max(hostile))}")
    # The same size of request with no regex to read (the good host): what Envoy and the filter
    # spend on 58 KB anyway, for comparison.
    plain = []
    for _ in range(10):
        status, _, body, seconds = timed(port, GOOD_HOST, "/good/" + path[6:])
        check(status == 200 and json.loads(body).get("upstream") == "good",
              f"{variant}: a 58 KB request to the good host is answered 200 by its upstream ({status})")
        plain.append(seconds)
    print(f"      for comparison, 10 requests of the same size to {GOOD_HOST}/good: 200 each, "
          f"median {ms(statistics.median(plain))}, max {ms(max(plain))}")
    log = envoy.log_text()
    line = next((l for l in log.splitlines() if WARNING in l), None)
    if check(line is not None, f"{variant}: Envoy's log has the regex budget warning"):
        print(f"  log: {line.split(WARNING, 1)[0][-40:]}{WARNING}{line.split(WARNING, 1)[1][:150]}")
        check(regexes in line and f"no match for {HOSTILE_HOST}/abcdefghij" in line and f"({len(path)} bytes)" in line,
              f"{variant}: the warning names the regexes and the request, cut: {line[-300:]!r}")

    # (b) The good tenant, without and then with the hostile load.
    quiet = good_requests(variant, port, args.good_requests)
    stop = threading.Event()
    load = {"sent": 0, "statuses": {}, "slowest": 0.0}
    lock = threading.Lock()

    def attack():
        while not stop.is_set():
            status, _, _, seconds = timed(port, HOSTILE_HOST, path)
            with lock:
                load["sent"] += 1
                load["statuses"][status] = load["statuses"].get(status, 0) + 1
                load["slowest"] = max(load["slowest"], seconds)

    threads = [threading.Thread(target=attack, daemon=True) for _ in range(args.hostile_threads)]
    ticks = envoy.cpu_ticks()
    for t in threads:
        t.start()
    time.sleep(0.5)  # the hostile load is under way before the first good request
    try:
        loaded = good_requests(variant, port, args.good_requests)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=35)
    cpu = (envoy.cpu_ticks() - ticks) / os.sysconf("SC_CLK_TCK")
    sent += load["sent"]
    check(load["sent"] > 0 and set(load["statuses"]) == {404},
          f"{variant}: every hostile request under load answered 404: {load['statuses']}")
    for name, values in (("without hostile load", quiet), ("under hostile load", loaded)):
        print(f"  (b) {len(values)} good requests {name}: median {ms(statistics.median(values))}, "
              f"p99 {ms(percentile(values, 99))}, max {ms(max(values))}")
    print(f"      hostile load: {load['sent']} requests from {args.hostile_threads} threads, "
          f"all answered {sorted(load['statuses'])}, slowest {ms(load['slowest'])}; Envoy's CPU "
          f"{ms(cpu / (load['sent'] + len(loaded)))} per request")

    time.sleep(1.5)  # the filter flushes its counters to Envoy every second
    counted = envoy.stat("wasmcustom.ingress_router.regex_budget_exhausted")
    check(counted == sent, f"{variant}: the regex_budget_exhausted counter counts every hostile request: {counted} == {sent}")
    warnings = envoy.log_text().count(WARNING)
    check(warnings == sent, f"{variant}: one warning per hostile request: {warnings} == {sent}")
    print(f"  ingress_router.regex_budget_exhausted = {counted}; {warnings} warnings in the log")
    envoys.stop_all()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--good-requests", type=int, default=50)
    parser.add_argument("--hostile-threads", type=int, default=2)
    parser.add_argument("--variant", choices=sorted(VARIANTS), action="append")
    args = parser.parse_args()
    wasm = os.path.abspath(args.wasm)
    workdir = tempfile.mkdtemp(prefix="ingress-router-e2e-hostile-")
    upstreams = {"good": upstream("good"), "evil": upstream("evil")}
    envoys = Envoys()
    try:
        for variant in args.variant or list(VARIANTS):
            run_variant(variant, wasm, workdir, args, upstreams, envoys)
    finally:
        envoys.stop_all()
        for server in upstreams.values():
            server.shutdown()
    if failures:
        print(f"{len(failures)} checks failed (logs in {workdir})")
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    print("all hostile-tenant end-to-end checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

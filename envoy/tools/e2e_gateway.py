#!/usr/bin/env python3
"""The Gateway API path of the filter in a real Envoy, end to end (loopback only; every Envoy
stopped by its PID, the echo upstream a thread of this process).

Every case of tests/cases/gateway.json (the project's Gateway API cases, each from the
specification's text) is replayed through one Envoy configured by `ingress-router envoy-config`
(the case's objects, `--gateway` when the case names one): the request goes to the listener with
the case's Host header (its port picks the Gateway listener), method, headers, and its scheme in
x-forwarded-proto. Envoy's answer is compared with the core's decision for the same request
(`ingress-router route --gateway ... --json`) and with the case's own expectation:

- status, and a redirect's Location;
- the backend: the cluster Envoy routed to (the echo upstream reports the routing header);
- what the backend received: Host, path and query, and the request headers after the modifiers
  (every header the case sends or the core lists, all its values in order);
- weighted splits: N requests, each side's share within bounds, an invalid side answering 500;
- the debug header names the core's route, rule and match; the filter's counters count.

Cases the harness cannot run through one Envoy are listed in NOT_RUN with the reason; the run
fails when any other case cannot run (or a listed one could), so none is skipped silently. A
case whose input `envoy-config` refuses (several Gateways and none named) is checked as refused.

Usage: e2e_gateway.py --wasm FILTER.wasm [--split-requests 400]
"""

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import ROOT, ROUTING_HEADER, Dynamic, Envoys, cli, raw_request  # noqa: E402

CASES = os.path.join(ROOT, "tests", "cases", "gateway.json")

# The cases this harness does not run, and why: none. Every case's options are the core's
# CompileOptions (`gateway`, `regexOrder`, `checkServices`), which both the plugin configuration
# (written by `envoy-config --options`) and the CLI's `route --options` carry.
NOT_RUN = {}
# Plugin configuration keys a case's options may carry (CompileOptions' Gateway API keys).
CARRIED_OPTIONS = {"gateway", "regexOrder", "checkServices"}

failures = []


def check(condition, what):
    if condition:
        return True
    failures.append(what)
    print(f"  FAIL {what}")
    return False


class Echo(BaseHTTPRequestHandler):
    """The upstream of every cluster: answers 200 with what it received, as JSON."""
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("content-length") or 0)
        if length:
            self.rfile.read(length)
        body = json.dumps({
            "cluster": self.headers.get(ROUTING_HEADER),
            "host": self.headers.get("host"),
            "path": self.path,
            "method": self.command,
            "headers": [[k.lower(), v] for k, v in self.headers.items()],
        }).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = answer

    def log_message(self, *args):
        pass


def split_url(url):
    scheme, rest = url.split("://", 1)
    cut = min([i for i in (rest.find("/"), rest.find("?")) if i >= 0], default=len(rest))
    host, path = rest[:cut], rest[cut:]
    if not path.startswith("/"):
        path = "/" + path
    return scheme, host, path


def behind_a_proxy(config):
    """Envoy trusting the client's x-forwarded-proto: the cases' https requests say their scheme there."""
    for listener in config["static_resources"]["listeners"]:
        for chain in listener["filter_chains"]:
            for f in chain["filters"]:
                f["typed_config"]["use_remote_address"] = False
    return config


def values(pairs, name):
    return [v for n, v in pairs if n.lower() == name]


def compare_upstream(what, seen, upstream, sent_names):
    """Host, path and the headers in scope (sent by the case or listed by the core), every value."""
    check(seen["host"] == upstream["host"], f"{what}: upstream Host {seen['host']!r} == core {upstream['host']!r}")
    check(seen["path"] == upstream["path"], f"{what}: upstream path {seen['path']!r} == core {upstream['path']!r}")
    names = sorted({n.lower() for n, _ in upstream["headers"]} | sent_names)
    for name in names:
        got, want = values(seen["headers"], name), values(upstream["headers"], name)
        check(got == want, f"{what}: upstream header {name} {got} == core {want}")


def refused_by_apiserver(manifest):
    """The objects of `manifest` the apiserver would refuse (`validate`): every home leaves them out
    of routing, as a cluster never holds them, so the case's own expectation (written for the
    router given them unchecked) does not apply; the answer is still compared with the core's."""
    report = json.loads(cli("validate", "-f", manifest, "--json", check=False).stdout)
    return [f"{o.get('kind')} {o.get('name')}" for o in report["objects"] if o.get("valid") is False]


def run_case(front, case, manifest, gateway_flags, split_requests, stats):
    r = case["request"]
    refused = refused_by_apiserver(manifest)
    if refused:
        stats["refused by the apiserver"] += 1
        print(f"  {case['id']}: {', '.join(refused)} refused by the apiserver: compared with the core only")
    scheme, host, path = split_url(r["url"])
    method = r.get("method", "GET")
    headers = [tuple(h) for h in r.get("headers", [])]
    args = [a for k, v in headers for a in ("-H", f"{k}: {v}")]
    core = json.loads(cli("route", "-f", manifest, r["url"], "--json", "-X", method, *gateway_flags, *args).stdout)
    # The case's own expectation holds for what a cluster would hold.
    expect = {} if refused else case["expect"]
    what = case["id"]
    send = lambda: raw_request(front.port, host, path, [*headers, ("X-Forwarded-Proto", scheme)], method=method)
    sent_names = {k.lower() for k, _ in headers}

    if core.get("split") and core.get("backend") is None:
        sides = {s["label"]: s for s in core["split"]}
        total = sum(s["weight"] for s in core["split"])
        counts = {name: 0 for name in sides}
        invalid = 0
        for _ in range(split_requests):
            status, hdrs, body = send()
            if status == 500 and hdrs.get("x-ingress-router-reason") == "invalid-backend":
                invalid += 1
                continue
            seen = json.loads(body) if status == 200 else {}
            if not check(status == 200 and seen.get("cluster") in sides, f"{what}: a side of the split ({status} {body[:80]!r})"):
                return
            counts[seen["cluster"]] += 1
            compare_upstream(what, seen, core["upstream"], sent_names)
        invalid_weight = sum(s["weight"] for s in core["split"] if s.get("invalid"))
        observed = {**counts}
        shares = []
        for name, side in sides.items():
            p = side["weight"] / total
            got = (invalid if side.get("invalid") else counts[name]) / split_requests
            if side.get("invalid"):
                # Every invalid side answers alike; their shares are counted together.
                p = invalid_weight / total
            # Within 5 standard deviations (and a point): a false failure is below one in a million.
            bound = 5 * math.sqrt(p * (1 - p) / split_requests) + 0.01
            check(abs(got - p) <= bound, f"{what}: {name} share {got:.3f} within {bound:.3f} of {p:.3f}")
            shares.append(f"{name} {got:.1%} (weight {side['weight']}/{total})")
        check(sum(observed.values()) + invalid == split_requests, f"{what}: every request answered")
        stats["split"] += 1
        print(f"  {what}: {split_requests} requests: {', '.join(shares)}")
        return

    status, hdrs, body = send()
    if core.get("grpcStatus") is not None:
        # A gRPC call the proxy answers itself: a trailers-only response (HTTP 200, grpc-status).
        stats["gRPC status"] += 1
        check(status == 200 and hdrs.get("grpc-status") == str(core["grpcStatus"]),
              f"{what}: Envoy answers grpc-status {hdrs.get('grpc-status')!r} (HTTP {status}) == core {core['grpcStatus']}")
        check(hdrs.get("x-ingress-router-reason") == core["via"],
              f"{what}: reason {hdrs.get('x-ingress-router-reason')!r} == core via {core['via']!r}")
        if "status" in expect:
            check(core["status"] == expect["status"], f"{what}: core status {core['status']} == expected {expect['status']}")
        return
    check(status == core["status"], f"{what}: Envoy status {status} == core {core['status']}")
    if "status" in expect:
        check(status == expect["status"], f"{what}: Envoy status {status} == expected {expect['status']}")
    if core.get("redirect"):
        stats["redirect"] += 1
        location = hdrs.get("location")
        check(location == core["redirect"]["location"], f"{what}: Location {location!r} == core {core['redirect']['location']!r}")
        if "location" in expect:
            check(location == expect["location"], f"{what}: Location {location!r} == expected {expect['location']!r}")
        return
    if status != 200:
        stats[str(status)] += 1
        check(hdrs.get("x-ingress-router-reason") == core["via"],
              f"{what}: reason {hdrs.get('x-ingress-router-reason')!r} == core via {core['via']!r}")
        return
    stats["backend"] += 1
    seen = json.loads(body)
    # One backend: the label is `namespace/name:port`, the cluster's name.
    want = core["label"]
    check(seen["cluster"] == want, f"{what}: cluster {seen['cluster']!r} == core {want!r}")
    check(seen["method"] == method, f"{what}: method {seen['method']} reaches the backend")
    # The debug header: the core's decision in one line.
    winner = f"{core['route']} rule {core['rule']} match {core['match']} -> {want}"
    check(winner in hdrs.get("x-ingress-router-match", ""),
          f"{what}: debug header {hdrs.get('x-ingress-router-match')!r} names {winner!r}")
    if expect.get("backend"):
        check(seen["cluster"] == expect["backend"], f"{what}: cluster {seen['cluster']!r} == expected {expect['backend']!r}")
    compare_upstream(what, seen, core["upstream"], sent_names)
    for key, got in (("upstream_host", seen["host"]), ("upstream_path", seen["path"])):
        if key in expect:
            check(got == expect[key], f"{what}: {key} {got!r} == expected {expect[key]!r}")
    for name, value in expect.get("upstream_headers", []):
        check(value in values(seen["headers"], name.lower()), f"{what}: expected upstream header {name}: {value}")
    if core.get("split"):
        # A split whose other sides weigh 0: every request goes to the one side.
        for _ in range(20):
            _, _, body = send()
            check(json.loads(body)["cluster"] == want, f"{what}: a weight-0 side is never picked")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--split-requests", type=int, default=400)
    args = parser.parse_args()
    wasm = os.path.abspath(args.wasm)
    with open(CASES) as f:
        cases = json.load(f)["cases"]
    print(f"gateway: {len(cases)} cases from {os.path.relpath(CASES, ROOT)} through Envoy")
    workdir = tempfile.mkdtemp(prefix="ingress-router-e2e-gateway-")
    echo = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=echo.serve_forever, daemon=True).start()
    upstream = echo.server_address[1]

    not_run, refused, groups = [], [], {}
    for case in cases:
        options = case.get("options") or {}
        extra = set(options) - CARRIED_OPTIONS
        if extra:
            not_run.append((case["id"], f"options {sorted(extra)}"))
            continue
        key = json.dumps([case["objects"], options], sort_keys=True)
        groups.setdefault(key, (case["objects"], options, []))[2].append(case)
    runs, clusters = [], set()
    for i, (objects, options, group) in enumerate(groups.values()):
        manifest = os.path.join(workdir, f"case-{i}.json")
        with open(manifest, "w") as f:
            json.dump(objects, f)
        gateway = options.get("gateway")
        rest = {k: v for k, v in options.items() if k != "gateway"}
        flags = (["--gateway", gateway] if gateway else []) + (["--options", json.dumps(rest)] if rest else [])
        made = cli("envoy-config", "--wasm", wasm, "-f", manifest, "--upstream", f"127.0.0.1:{upstream}",
                   "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--debug-header", *flags, check=False)
        if made.returncode != 0:
            # The filter refuses such a configuration too (its unit tests): no Envoy serves it.
            for case in group:
                ok = check(case["expect"].get("via") == "noGateway",
                           f"{case['id']}: envoy-config refused a case that routes ({made.stderr.strip()})")
                if ok:
                    refused.append((case["id"], made.stderr.strip()))
            continue
        config = behind_a_proxy(json.loads(made.stdout))
        clusters |= {c["name"] for c in config["static_resources"]["clusters"]}
        runs.append((manifest, flags, config, group))

    # Skipped only as documented: the same cases, for the same reasons.
    listed = {case_id for case_id, _ in not_run}
    check(listed == set(NOT_RUN), f"the cases not run are the documented ones: {sorted(listed ^ set(NOT_RUN))}")
    for case_id, why in not_run:
        print(f"  not run: {case_id}: {NOT_RUN.get(case_id, why)}")

    envoys = Envoys()
    stats = {"backend": 0, "redirect": 0, "split": 0, "404": 0, "500": 0, "gRPC status": 0, "refused by the apiserver": 0}
    ran = 0
    try:
        dynamic = Dynamic(os.path.join(workdir, "front"))
        envoy = None
        for manifest, flags, config, group in runs:
            # Every cluster any case needs, each pointing at the echo upstream.
            template = config["static_resources"]["clusters"][0] if config["static_resources"]["clusters"] else None
            if template is None:
                template = {"name": "", "type": "STRICT_DNS", "connect_timeout": "1s", "load_assignment": {
                    "cluster_name": "", "endpoints": [{"lb_endpoints": [{"endpoint": {"address": {"socket_address": {
                        "address": "127.0.0.1", "port_value": upstream}}}}]}]}}
            # The echo upstream speaks HTTP/1.1 only: no cluster keeps the HTTP/2 of a GRPCRoute's
            # backend (these cases check routing; e2e_grpc.py runs gRPC over HTTP/2 end to end).
            template = {k: v for k, v in template.items() if k != "typed_extension_protocol_options"}
            config["static_resources"]["clusters"] = [
                dict(json.loads(json.dumps(template)), name=c, load_assignment=dict(template["load_assignment"], cluster_name=c))
                for c in sorted(clusters)]
            if envoy is None:
                envoy = envoys.start("gateway", dynamic.bootstrap(config), workdir)
                harness.wait_listening(envoy.wait_ready())
            else:
                before = harness.counters(envoy)
                written = dynamic.push(config, clusters=False)
                if written and not check(harness.wait_applied(envoy, written, before), f"{manifest}: configuration applied"):
                    continue
            front = type("Front", (), {"port": envoy.listener_port()})
            for case in group:
                run_case(front, case, manifest, flags, args.split_requests, stats)
                ran += 1
        time.sleep(1.5)  # the filter flushes its counters to Envoy every second
        counters = envoy.stats("ingress_router")
        for name in ("routed", "redirected", "not_found", "rejected"):
            check(counters.get(f"wasmcustom.ingress_router.{name}", 0) > 0, f"the {name} counter counts ({counters})")
    finally:
        envoys.stop_all()
        echo.shutdown()
    print(f"  {ran} cases through Envoy ({', '.join(f'{v} {k}' for k, v in stats.items())}); "
          f"{len(refused)} refused by envoy-config as the case expects; {len(not_run)} not run (listed above)")
    check(ran + len(refused) + len(not_run) == len(cases), "every case is run, refused or listed")
    if failures:
        print(f"{len(failures)} checks failed (logs in {workdir})")
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    print("all Gateway API end-to-end checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

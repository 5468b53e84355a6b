#!/usr/bin/env python3
"""gRPC through the filter in a real Envoy, end to end (issue 30; loopback only).

Three gRPC echo servers (grpcio, in this process, on 127.0.0.1 ports the kernel picks) reply to
any method with which server answered, the method and the request metadata they saw. A Gateway
and its GRPCRoutes (Exact and RegularExpression method matches, a header match, a
RequestHeaderModifier, a 3:1 weighted split) point at them through Services whose ports are the
servers' ports (`envoy-config --upstream 127.0.0.1:{port}`); `envoy-config` writes the bootstrap:
HTTP/2 clusters for the GRPCRoutes' backends, a listener taking h2c, and `--gateway-port 80` so
that the client's `grpc.example.com:<Envoy's port>` authority is routed on the Gateway's port 80
listener. A real grpcio client over an insecure channel then checks:

- matched calls reach the right server, with the right method, the header filter's metadata and
  the client's own; the debug header names the rule; a client's routing header picks nothing;
- calls nothing matches (a method, a host) fail with UNIMPLEMENTED, answered by the filter
  (`x-ingress-router-reason` in the trailers; the echo servers answer every method);
- a 3:1 split over 200 calls lands within 5 standard deviations of its weights.

Every check that fails is listed and the exit status is 1; Envoy is stopped by its PID, the echo
servers with the process. Needs grpcio (the Makefile installs it into the Envoy virtualenv).

Usage: e2e_grpc.py --wasm FILTER.wasm [--split-calls 200]
"""

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
from concurrent import futures

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROUTING_HEADER, Envoys, cli  # noqa: E402

HOST = "grpc.example.com"
GATEWAY_PORT = 80
SERVERS = ("echo-a", "echo-b", "echo-c")
REASON_HEADER = "x-ingress-router-reason"
DEBUG_HEADER = "x-ingress-router-match"

failures = []


def check(condition, what):
    if condition:
        print(f"  ok   {what}")
        return True
    failures.append(what)
    print(f"  FAIL {what}")
    return False


class Echo(grpc.GenericRpcHandler):
    """Answers every method (so that an UNIMPLEMENTED can only come from the filter): a JSON reply
    naming this server, the method, the request bytes and the request metadata."""

    def __init__(self, name):
        self.name = name

    def service(self, handler_call_details):
        method = handler_call_details.method

        def reply(request, context):
            return json.dumps({
                "server": self.name,
                "method": method,
                "request": request.decode("utf-8", "replace"),
                "metadata": [[k, v] for k, v in context.invocation_metadata()],
            }).encode()

        # No serializers: the request and the reply are the bytes on the wire (no protoc needed).
        return grpc.unary_unary_rpc_method_handler(reply)


def start_echo(name):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), handlers=[Echo(name)])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def manifests(ports):
    """The Gateway API objects; a Service per echo server, its port the server's."""
    backend = lambda name, weight=None: {"name": name, "port": ports[name], **({"weight": weight} if weight else {})}
    method = lambda service, name=None, kind="Exact": {"type": kind, "service": service, **({"method": name} if name else {})}
    gateway = {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "grpc", "namespace": "infra"},
               "spec": {"gatewayClassName": "example", "listeners": [
                   {"name": "h2c", "port": GATEWAY_PORT, "protocol": "HTTP", "hostname": "*.example.com",
                    "allowedRoutes": {"namespaces": {"from": "All"}}}]}}
    route = {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GRPCRoute", "metadata": {"name": "echo", "namespace": "apps"},
             "spec": {"parentRefs": [{"name": "grpc", "namespace": "infra"}], "hostnames": [HOST], "rules": [
                 # Exact service and method, with a RequestHeaderModifier.
                 {"matches": [{"method": method("echo.v1.Echo", "Echo")}],
                  "filters": [{"type": "RequestHeaderModifier", "requestHeaderModifier": {
                      "set": [{"name": "x-routed-by", "value": "exact"}], "add": [{"name": "x-tenant", "value": "shop"}]}}],
                  "backendRefs": [backend("echo-a")]},
                 # The same method with a header: more header matches win.
                 {"matches": [{"method": method("echo.v1.Echo", "Echo"), "headers": [{"name": "x-canary", "value": "true"}]}],
                  "filters": [{"type": "RequestHeaderModifier", "requestHeaderModifier": {
                      "set": [{"name": "x-routed-by", "value": "canary"}], "remove": ["x-tenant"]}}],
                  "backendRefs": [backend("echo-b")]},
                 # Regular expressions on service and method.
                 {"matches": [{"method": method(r"echo\.v[0-9]+\.Echo", "Rev.*", "RegularExpression")}],
                  "backendRefs": [backend("echo-c")]},
                 # A 3:1 split.
                 {"matches": [{"method": method("echo.v1.Echo", "Split")}],
                  "backendRefs": [backend("echo-a", 3), backend("echo-b", 1)]},
             ]}}
    # echo-c also serves web pages: its Service port says HTTP/2 (appProtocol), which gRPC needs.
    pages = {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "pages", "namespace": "apps"},
             "spec": {"parentRefs": [{"name": "grpc", "namespace": "infra"}], "hostnames": ["www.example.com"],
                      "rules": [{"backendRefs": [backend("echo-c")]}]}}
    services = [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "namespace": "apps"},
                 "spec": {"ports": [{"name": "grpc", "port": ports[name],
                                     **({"appProtocol": "kubernetes.io/h2c"} if name == "echo-c" else {})}]}}
                for name in SERVERS]
    return [gateway, route, pages, *services]


def cluster(name, ports):
    return f"apps/{name}:{ports[name]}"


def metadata_values(reply, name):
    return [v for k, v in reply["metadata"] if k == name]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--split-calls", type=int, default=200)
    args = parser.parse_args()
    wasm = os.path.abspath(args.wasm)
    workdir = tempfile.mkdtemp(prefix="ingress-router-e2e-grpc-")
    servers, ports = {}, {}
    envoys = Envoys()
    try:
        for name in SERVERS:
            servers[name], ports[name] = start_echo(name)
        manifest = os.path.join(workdir, "grpc.json")
        with open(manifest, "w") as f:
            json.dump(manifests(ports), f)
        made = cli("envoy-config", "--wasm", wasm, "-f", manifest, "--upstream", "127.0.0.1:{port}",
                   "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--gateway-port", str(GATEWAY_PORT),
                   "--debug-header")
        config = json.loads(made.stdout)
        clusters = {c["name"]: c for c in config["static_resources"]["clusters"]}
        check(sorted(clusters) == sorted(cluster(n, ports) for n in SERVERS), f"a cluster per echo server: {sorted(clusters)}")
        check(all("typed_extension_protocol_options" in c for c in clusters.values()), "every cluster speaks HTTP/2 upstream")
        envoy = envoys.start("grpc", config, workdir).wait_ready()
        port = envoy.listener_port()
        print(f"grpc: Envoy on 127.0.0.1:{port}, echo servers {ports}")
        run_checks(port, ports, args.split_calls)
    except Exception as e:  # noqa: BLE001: any error is a failed run, with what happened
        failures.append(f"{type(e).__name__}: {e}")
        print(f"  FAIL {type(e).__name__}: {e}")
    finally:
        envoys.stop_all()
        for server in servers.values():
            server.stop(0)
    if failures:
        print(f"{len(failures)} checks failed (logs in {workdir})")
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    print("all gRPC end-to-end checks passed")
    return 0


def run_checks(port, ports, split_calls):
    def channel(host=HOST):
        # The authority a client of grpc.example.com:<Envoy's port> sends; no proxy from the environment.
        return grpc.insecure_channel(f"127.0.0.1:{port}", options=[
            ("grpc.default_authority", f"{host}:{port}"), ("grpc.enable_http_proxy", 0)])

    def call(ch, method, metadata=(), payload=b"hello"):
        """(reply as a dict, initial metadata as a dict); raises grpc.RpcError."""
        reply, c = ch.unary_unary(method).with_call(payload, metadata=list(metadata), timeout=5)
        return json.loads(reply), dict(c.initial_metadata())

    def unimplemented(ch, method, what):
        try:
            reply, _ = call(ch, method)
            check(False, f"{what}: UNIMPLEMENTED, not an answer from {reply['server']}")
        except grpc.RpcError as e:
            trailers = dict(e.trailing_metadata() or ())
            check(e.code() == grpc.StatusCode.UNIMPLEMENTED and REASON_HEADER in trailers,
                  f"{what}: {e.code()} answered by the filter ({REASON_HEADER}: {trailers.get(REASON_HEADER)!r})")

    with channel() as ch:
        reply, head = call(ch, "/echo.v1.Echo/Echo", payload=b"exact")
        check(reply["server"] == "echo-a" and reply["method"] == "/echo.v1.Echo/Echo" and reply["request"] == "exact",
              f"Exact method match reaches echo-a with its method and request ({reply['server']}, {reply['method']})")
        check(metadata_values(reply, "x-routed-by") == ["exact"] and metadata_values(reply, "x-tenant") == ["shop"],
              "the RequestHeaderModifier's set and add reach the upstream")
        check(metadata_values(reply, ROUTING_HEADER) == [cluster("echo-a", ports)], "the routing header names the cluster")
        check("rule 0 match 0" in head.get(DEBUG_HEADER, ""), f"the debug header names the rule: {head.get(DEBUG_HEADER)!r}")

        reply, _ = call(ch, "/echo.v1.Echo/Echo", [("x-canary", "true"), ("x-tenant", "shop")])
        check(reply["server"] == "echo-b", f"the header match wins and reaches echo-b ({reply['server']})")
        check(metadata_values(reply, "x-routed-by") == ["canary"] and not metadata_values(reply, "x-tenant"),
              "its RequestHeaderModifier's set and remove reach the upstream")
        check(metadata_values(reply, "x-canary") == ["true"], "the client's metadata reaches the upstream")

        for method in ("/echo.v1.Echo/Reverse", "/echo.v2.Echo/RevAll"):
            reply, _ = call(ch, method)
            check(reply["server"] == "echo-c" and reply["method"] == method,
                  f"RegularExpression match: {method} reaches echo-c ({reply['server']})")

        reply, _ = call(ch, "/echo.v1.Echo/Echo", [(ROUTING_HEADER, cluster("echo-b", ports))])
        check(reply["server"] == "echo-a", f"a client's {ROUTING_HEADER} picks nothing ({reply['server']})")

        unimplemented(ch, "/echo.v1.Echo/Unknown", "a method no rule matches")
        unimplemented(ch, "/other.Service/Echo", "a service no rule matches")
        with channel("other.example.com") as other:
            unimplemented(other, "/echo.v1.Echo/Echo", "a host no route serves")

        counts = {name: 0 for name in SERVERS}
        for i in range(split_calls):
            reply, _ = call(ch, "/echo.v1.Echo/Split", payload=str(i).encode())
            counts[reply["server"]] += 1
        check(counts["echo-c"] == 0, f"the split reaches only its two sides ({counts})")
        for name, weight in (("echo-a", 3), ("echo-b", 1)):
            p, got = weight / 4, counts[name] / split_calls
            # Within 5 standard deviations (and a point): a false failure is below one in a million.
            bound = 5 * math.sqrt(p * (1 - p) / split_calls) + 0.01
            check(abs(got - p) <= bound, f"split: {name} {got:.1%} of {split_calls} calls, weight {p:.0%} (within {bound:.1%})")


if __name__ == "__main__":
    sys.exit(main())

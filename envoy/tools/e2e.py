#!/usr/bin/env python3
"""The filter in a real Envoy, end to end (loopback only; every Envoy stopped by its PID).

1. Conformance: the project's routing cases (tests/cases/routing.json, schema in its README)
   replayed through Envoy give the decision `ingress-router route --json` gives for the path Envoy
   routes (normalize_path, merge_slashes, escaped slashes rejected), and the case's expectation.
2. Faults: an invalid Ingress is left out and the other tenants' Ingresses serve (a later edit of
   theirs applies); under `strict`, or when nothing valid is left, the configuration is rejected
   and the old table keeps serving;
   a client-supplied routing header never picks the backend (also under FAIL_OPEN with the
   shipped strip, and the same test without the strip shows the hole it closes); dot segments,
   double slashes, escaped dots and slashes, and odd Host headers never reach a backend other than
   the one the normalised request selects. A precompiled table (`envoy-config --table`) routes as
   its manifests; a damaged one, or one of another format version, is refused and the previous
   table keeps serving; the table-only build serves tables and refuses manifests.
3. The ingress-nginx profile: every probe `ingress-router diff` derives from the nginx test
   manifests (at, under, beside, case, slash, regex corners; http and https), with and without the
   canaries' headers and cookies, answered by Envoy as the core answers: the backend, the path it
   receives after `rewrite-target`, the redirect's status and Location; a canary weight splits
   real traffic in proportion.
4. Corpus: the real-world files the apiserver would accept (tests/corpus), under both profiles,
   every probe of `diff` through Envoy against the core.
5. Soak: the manifests reloaded every second under steady load, through ECDS (the filter's
   configuration alone): no failed request, no connection closed, memory flat.

Usage: e2e.py --wasm FILTER.wasm --noop-wasm NOOP.wasm --table-wasm TABLE_ONLY.wasm [--soak-seconds 10]
"""

import argparse
import base64
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import http.client
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import ROOT, Dynamic, Envoys, cli, raw_request, stand_in_config  # noqa: E402

# The path Envoy routes, as the HCM in `envoy-config` (and envoy/envoy.yaml) normalises it.
ENVOY_NORMALISATION = ["--normalize-path", "--merge-slashes", "--escaped-slashes", "REJECT_REQUEST"]

failures = []


def check(condition, what):
    if condition:
        return True
    failures.append(what)
    print(f"  FAIL {what}")
    return False


def cases():
    path = os.path.join(ROOT, "tests", "cases", "routing.json")
    with open(path) as f:
        return path, json.load(f)


# The options Envoy decides itself: it normalises before any filter runs.
NORMALISATION_OPTIONS = ("normalizePath", "mergeSlashes", "escapedSlashes")


def case_flags(options):
    """CLI flags for a case's options (the core's camelCase JSON, passed as it is): (the table's,
    for `envoy-config` and the core, the case's own for the core alone).

    The normalisation options are not the filter's: Envoy normalises before any filter runs, always
    the secure way (`ENVOY_NORMALISATION`, as envoy.yaml), so a case asking for another escaped-slash
    action (KEEP_UNCHANGED, UNESCAPE_AND_FORWARD) or none is compared with the core under Envoy's
    normalisation, and with its own expectation only where both normalisations decide alike. An
    option the CLI does not know fails the case (the CLI refuses it)."""
    options = options or {}
    table = {k: v for k, v in options.items() if k not in NORMALISATION_OPTIONS}
    return ["--options", json.dumps(table, sort_keys=True)], ["--options", json.dumps(options, sort_keys=True)]


def invalid_ingresses(manifest, flags):
    """The Ingresses of `manifest` the core leaves out as invalid (what the apiserver would reject),
    and whether anything is left to serve (a valid Ingress or a default backend)."""
    table = json.loads(cli("table", "-f", manifest, "--json", *flags, check=False).stdout)
    invalid = [e for e in table.get("excluded", []) if e.get("errors")]
    return invalid, bool(table.get("ingresses")) or table.get("defaultBackend") is not None


def answer(status, headers, body):
    """What Envoy's answer says: the stand-in's label, or the status of a local reply."""
    if status == 200:
        return body
    return str(status)


def core_answer(manifest, host, path, flags, normalisation=ENVOY_NORMALISATION):
    """What the core decides for the request (its label); by default for the path as Envoy
    normalises it."""
    out = json.loads(cli("route", "-f", manifest, host, path, "--json", *normalisation, *flags).stdout)
    return out["label"]


def expected(case):
    return case["expect"]["backend"]


class Front:
    """A front Envoy with file-based LDS/CDS, the filter, and a stand-in upstream."""

    def __init__(self, envoys, workdir, wasm, clusters, extra=(), name="front"):
        self.envoys, self.workdir, self.wasm, self.extra = envoys, workdir, wasm, list(extra)
        # Every Envoy binds port 0; the ports it chose are read back (see harness.Envoy).
        self.stand_in = envoys.start(f"{name}-stand-in", stand_in_config(clusters, 0, 0), workdir).wait_ready()
        self.upstream = self.stand_in.listener_port()
        self.port = None
        self.clusters = sorted(set(clusters))
        self.dynamic = Dynamic(os.path.join(workdir, name))

        self.name = name
        self.envoy = None

    def config(self, manifests, extra=()):
        config = harness.envoy_config(manifests, self.wasm, 0, 0, self.upstream,
                                      [*self.extra, *extra])
        # Every cluster any configuration of this front needs (cluster_header names them at request time).
        template = config["static_resources"]["clusters"][0] if config["static_resources"]["clusters"] else None
        if template:
            config["static_resources"]["clusters"] = [dict(json.loads(json.dumps(template)), name=c,
                                                           load_assignment=dict(template["load_assignment"], cluster_name=c))
                                                      for c in self.clusters]
        return config

    def start(self, config):
        self.envoy = self.envoys.start(self.name, self.dynamic.bootstrap(config), self.workdir)
        harness.wait_listening(self.envoy.wait_ready())
        self.port = self.envoy.listener_port()
        return self

    def push(self, config):
        """Pushes a configuration (through ECDS when only the filter's changed); True when Envoy
        applied it, False when it rejected it."""
        before = harness.counters(self.envoy)
        written = self.dynamic.push(config, clusters=False)
        applied = harness.wait_applied(self.envoy, written, before) if written else True
        if applied and "lds" in written:
            self.port = self.envoy.listener_port()  # a replaced listener may bind anew
        return applied

    def get(self, host, path, headers=(), version="HTTP/1.1"):
        return raw_request(self.port, host, path, headers, version=version)


def clusters_of(config):
    return [c["name"] for c in config["static_resources"]["clusters"]]


def conformance(envoys, workdir, wasm):
    path, all_cases = cases()
    print(f"conformance: {len(all_cases)} cases from {os.path.relpath(path, ROOT)}")
    groups = {}
    for case in all_cases:
        flags, case["own_flags"] = case_flags(case.get("options"))
        key = json.dumps([case["ingresses"], flags], sort_keys=True)
        groups.setdefault(key, (case["ingresses"], flags, []))[2].append(case)
    manifests, clusters = [], []
    for i, (ingresses, flags, group) in enumerate(groups.values()):
        manifest = os.path.join(workdir, f"group-{i}.json")
        with open(manifest, "w") as f:
            json.dump(ingresses, f)
        manifests.append((manifest, flags, group))
        clusters += clusters_of(harness.envoy_config([manifest], wasm, 1, 2, 3, flags))
    front = Front(envoys, workdir, wasm, clusters, name="conformance")
    first = True
    compared = expected_checked = refused = 0
    for manifest, flags, group in manifests:
        config = front.config([manifest], flags)
        invalid, serves = invalid_ingresses(manifest, flags)
        if invalid and (first or not serves):
            continue  # checked once a table serves: the refusals below keep it
        if invalid:
            # The core and the filter leave an Ingress the apiserver would reject out and route
            # the rest; under `strict` the filter refuses the whole configuration instead.
            strict = front.config([manifest], [*flags, "--strict"])
            check(front.push(strict) is False, f"{manifest}: strict refuses a configuration with an invalid Ingress")
            refused += len(group)
        if first:
            front.start(config)
            first = False
        elif not check(front.push(config), f"{manifest}: listener update applied"):
            continue
        for case in group:
            host, path = case["request"]["host"], case["request"]["path"]
            got = answer(*front.get(host, path))
            if "#" in path:
                # Envoy's codec answers 400 to a fragment in the request target, before any filter.
                check(got == "400", f"{case['id']}: Envoy refuses a fragment itself ({got!r})")
                compared += 1
                continue
            core = core_answer(manifest, host, path, flags)
            check(got == core, f"{case['id']}: Envoy {got!r} == core {core!r} ({host} {path})")
            # The case's own expectation, when its normalisation and Envoy's decide alike.
            if core_answer(manifest, host, path, case["own_flags"], normalisation=[]) == core:
                check(got == expected(case), f"{case['id']}: Envoy {got!r} == expected {expected(case)!r}")
                expected_checked += 1
            compared += 1
    print(f"  {compared} compared with the core, {expected_checked} with the case's own expectation, "
          f"{refused} with an invalid Ingress (refused under strict, served without it)")
    time.sleep(1.5)  # the filter flushes its counters to Envoy every second
    counters = front.envoy.stats("ingress_router")
    check(counters.get("wasmcustom.ingress_router.routed", 0) > 0, f"routed counter counts ({counters})")
    check(counters.get("wasmcustom.ingress_router.not_found", 0) > 0, "not_found counter counts")
    check(counters.get("wasmcustom.ingress_router.default_backend", 0) > 0, "default_backend counter counts")
    check(any(k.startswith("wasmcustom.ingress_router.ingress.") and v > 0 for k, v in counters.items()),
          "per-Ingress counters count")


SHOP = """
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: shop, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /public, pathType: Prefix, backend: {service: {name: public, port: {number: 80}}}}
      - {path: /admin, pathType: Prefix, backend: {service: {name: admin, port: {number: 80}}}}
      - {path: /a/b, pathType: Exact, backend: {service: {name: ab, port: {number: 80}}}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: other, namespace: other, creationTimestamp: "2024-01-02T00:00:00Z"}
spec:
  rules:
  - http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: catch-all, port: {number: 80}}}}
"""


def write(workdir, name, text):
    path = os.path.join(workdir, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def only_path(workdir):
    """The first Ingress of SHOP alone (no host-less rule)."""
    return write(workdir, "only.yaml", SHOP.split("---")[0])


def faults(envoys, workdir, wasm, noop_wasm):
    print("faults: bad configuration, client routing header, paths and hosts")
    shop = write(workdir, "shop.yaml", SHOP)
    bootstrap = harness.envoy_config([shop], wasm, 1, 2, 3)
    clusters = clusters_of(bootstrap) + ["other/catch-all-v2:80"]
    front = Front(envoys, workdir, wasm, clusters, name="faults", extra=["--debug-header"])
    front.start(front.config([shop]))

    # The debug header names the Ingress and rule.
    status, headers, body = front.get("shop.example.com", "/public/x")
    check((status, body) == (200, "public:80"), f"/public/x reaches public:80 ({status} {body})")
    check(headers.get("x-ingress-router-match") == "public:80 shop/shop spec.rules[0].http.paths[0]",
          f"debug header names the rule ({headers.get('x-ingress-router-match')})")
    status, headers, body = front.get("nowhere.example.com", "/x")
    check(status == 200 and body == "catch-all:80", "host-less rule catches other hosts")

    # The CLI's own ECDS file (`envoy-config --format ecds`), as a user writes it, loads and routes.
    before = harness.counters(front.envoy)
    text = cli("envoy-config", "--wasm", wasm, "-f", only_path(workdir), "--format", "ecds").stdout
    harness.atomic_write(front.dynamic.ecds, json.loads(text))
    check(harness.wait_applied(front.envoy, ["ecds"], before), "envoy-config --format ecds: Envoy applies it")
    status, _, _ = front.get("nowhere.example.com", "/x")
    check(status == 404, f"and routes with it: the host-less rule is gone ({status})")
    status, _, body = front.get("shop.example.com", "/public/x")
    check((status, body) == (200, "public:80"), f"and routes with it: /public/x reaches public:80 ({status} {body})")
    front.dynamic.filter = None  # the next push writes its own

    precompiled_table(front, shop)

    # No backend: a local 404 that says why.
    only = only_path(workdir)
    check(front.push(front.config([only])), "narrower manifests applied")
    status, headers, body = front.get("nowhere.example.com", "/x")
    check(status == 404 and "x-ingress-router-reason" in headers and body.strip(),
          f"no backend: local 404 with a reason header and a body ({status} {headers})")

    # Strict: a configuration with an invalid Ingress is rejected; the old table keeps serving.
    invalid = SHOP.replace("path: /admin,", "path: /admin/../x,")
    bad = write(workdir, "bad.yaml", invalid)
    before = front.envoy.log_text()
    check(front.push(front.config([bad], ["--strict"])) is False, "strict: a configuration with an invalid Ingress is rejected")
    log = front.envoy.log_text()[len(before):]
    check("Ingress shop/shop: spec.rules[0].http.paths[1].path" in log,
          "the rejection is logged naming the Ingress and the field")
    status, _, body = front.get("shop.example.com", "/admin")
    check((status, body) == (200, "admin:80"), f"old table keeps serving after a rejected update ({status} {body})")
    status, _, _ = front.get("nowhere.example.com", "/x")
    check(status == 404, "old table (not the rejected one, not a mix) keeps serving")

    # By default one tenant's invalid Ingress is left out and the other tenants' serve.
    before = front.envoy.log_text()
    check(front.push(front.config([bad])), "an invalid Ingress among valid ones: the configuration is applied")
    log = front.envoy.log_text()[len(before):]
    check("Ingress shop/shop: spec.rules[0].http.paths[1].path" in log and "left out" in log,
          "the Ingress left out is logged with its field")
    status, headers, body = front.get("shop.example.com", "/admin")
    check((status, body) == (200, "catch-all:80"),
          f"nothing of the invalid Ingress serves; the other tenant's catch-all answers ({status} {body})")
    check(headers.get("x-ingress-router-excluded") == "shop/shop",
          f"the debug output names the Ingress left out ({headers.get('x-ingress-router-excluded')})")
    check(front.envoy.stat("wasmcustom.ingress_router.invalid_ingresses") == 1, "the invalid_ingresses gauge counts it")
    edited = write(workdir, "edited.yaml", invalid.replace("name: catch-all,", "name: catch-all-v2,"))
    check(front.push(front.config([edited])), "a later valid edit by another tenant is applied")
    status, _, body = front.get("nowhere.example.com", "/x")
    check((status, body) == (200, "catch-all-v2:80"), f"the other tenant's edit serves ({status} {body})")
    only_invalid = write(workdir, "only-invalid.yaml", invalid.split("---")[0])
    check(front.push(front.config([only_invalid])) is False, "no valid Ingress and no default: rejected")
    status, _, body = front.get("nowhere.example.com", "/x")
    check((status, body) == (200, "catch-all-v2:80"), "and the previous table keeps serving")
    before = front.envoy.log_text()
    syntax = write(workdir, "syntax.json", '{"kind": "Ingress", "bad": [unclosed')
    check(front.push(bad_plugin(front.config([shop]), syntax)) is False, "JSON syntax error: update rejected")
    check("line 1" in front.envoy.log_text()[len(before):], "the rejection says where")
    yaml_text = write(workdir, "text.yaml", SHOP)
    before = front.envoy.log_text()
    check(front.push(bad_plugin(front.config([shop]), yaml_text)) is False, "YAML text (this build reads JSON): rejected")
    check("give the manifests as JSON objects" in front.envoy.log_text()[len(before):], "saying what to give instead")
    check(front.push(front.config([shop])), "good manifests apply again")

    # The client never picks the cluster.
    for host, path in [("shop.example.com", "/public/x"), ("elsewhere.example.com", "/admin"),
                       ("shop.example.com", "/zzz")]:
        status, headers, body = front.get(host, path, [("x-ingress-backend", "shop/admin:80"),
                                                       ("X-Ingress-Backend", "shop/admin:80")])
        want = core_answer(shop, host, path, [])
        check(answer(status, headers, body) == want, f"client x-ingress-backend ignored on {host}{path} "
                                                     f"({status} {body!r}, core {want!r})")
    check(front.push(front.config([only])), "narrower manifests applied")
    status, _, body = front.get("nowhere.example.com", "/x", [("x-ingress-backend", "shop/admin:80")])
    check(status == 404 and body != "admin:80", f"client header on a 404 does not reach admin ({status} {body})")
    check(front.push(front.config([shop])), "good manifests apply again")

    # Paths: Envoy normalises, the filter routes the normalised path, the backend gets that same path.
    for path in ["/public/../admin", "//admin", "/%2e%2e/admin", "/public/%2E%2E/admin", "/public/./../admin/x",
                 "/public%2F..%2Fadmin", "/public%2f..%2fadmin", "/admin%2Fx", "/public%5C..%5Cadmin", "/a//b",
                 "/a/./b", "/a/b/", "/A/B", "/public?/../admin", "/public#/../admin", "/public%00/admin"]:
        status, headers, body = front.get("shop.example.com", path)
        core = core_answer(shop, "shop.example.com", path, [])
        # Envoy may refuse a path the core would route (400: a fragment, a NUL): never a backend then.
        refused = status == 400 and "x-ingress-router-reason" not in headers
        check(answer(status, headers, body) == core or refused, f"path {path}: Envoy {status} {body!r} == core {core!r}")
        if status == 200:
            seen = headers.get("x-seen-path", "")
            check(core_answer(shop, "shop.example.com", seen, []) == body,
                  f"path {path}: the path the backend sees ({seen}) selects {body}")
    # Hosts: port, case, trailing dot, none.
    for host in ["shop.example.com:10000", "SHOP.Example.COM", "shop.example.com.", "shop.example.com.:80",
                 "shop.example.com..", "*.example.com", "shop.example.com:abc", ""]:
        status, headers, body = front.get(host, "/admin")
        if status == 200:
            core = core_answer(shop, host, "/admin", [])
            check(body == core, f"host {host!r}: Envoy {body!r} == core {core!r}")
        else:
            check(body not in ("admin:80", "public:80"), f"host {host!r}: refused ({status}) without a backend")
    for version in ["HTTP/1.1", "HTTP/1.0"]:
        status, _, body = front.get(None, "/admin", version=version)
        check(status != 200 or body == core_answer(shop, "", "/admin", []),
              f"no Host ({version}): {status} {body!r} is what the core says for an empty host")

    fail_open(envoys, workdir, noop_wasm, shop)


def plugin_of(config):
    """The filter's configuration in a bootstrap (the listener's wasm filter), as a dict, and a
    function writing a changed one back."""
    for f in config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]["http_filters"]:
        if f["name"] == "envoy.filters.http.wasm":
            holder = f["typed_config"]["config"]["configuration"]
            return json.loads(holder["value"]), lambda value: holder.update(value=json.dumps(value))
    raise AssertionError("no wasm filter in the bootstrap")


def precompiled_table(front, shop):
    """`envoy-config --table`: the filter loads the compiled table and routes as with the manifests;
    a damaged table, or one of another format version, is refused with a log line naming why, and
    the previous table keeps serving."""
    config = front.config([shop], ["--table"])
    plugin, _ = plugin_of(config)
    check("table" in plugin and "manifests" not in plugin, "envoy-config --table ships a table, not manifests")
    check(front.push(config), "envoy-config --table: Envoy applies the table")
    for host, path in [("shop.example.com", "/public/x"), ("shop.example.com", "/admin"), ("nowhere.example.com", "/x"),
                       ("shop.example.com", "/zzz"), ("SHOP.example.com", "/public")]:
        status, headers, body = front.get(host, path)
        want = core_answer(shop, host, path, [])
        check(answer(status, headers, body) == want, f"table: {host}{path} answers as the manifests "
                                                     f"({status} {body!r}, core {want!r})")
    table = bytearray(base64.b64decode(plugin["table"]))
    for what, damaged, why in [("a damaged table", lambda t: t.__setitem__(-1, t[-1] ^ 1), "checksum does not match"),
                               ("a table of another format version", lambda t: t.__setitem__(8, 99), "table format 99")]:
        bad = front.config([shop], ["--table"])
        value, put = plugin_of(bad)
        copy = bytearray(table)
        damaged(copy)
        value["table"] = base64.b64encode(bytes(copy)).decode()
        put(value)
        before = front.envoy.log_text()
        check(front.push(bad) is False, f"{what} is refused")
        log = front.envoy.log_text()[len(before):]
        check(why in log and "plugin configuration: table" in log, f"{what}: the log says why ({why!r})")
        status, _, body = front.get("shop.example.com", "/public/x")
        check((status, body) == (200, "public:80"), f"{what}: the previous table keeps serving ({status} {body})")


def table_only(envoys, workdir, wasm):
    """The filter built without its `manifests` feature: it serves a table `envoy-config --table`
    wrote as the full filter does, and refuses manifests saying which build reads them."""
    print("table-only filter: loads a precompiled table, refuses manifests")
    shop = write(workdir, "shop.yaml", SHOP)
    clusters = clusters_of(harness.envoy_config([shop], wasm, 1, 2, 3)) + ["other/catch-all-v2:80"]
    front = Front(envoys, workdir, wasm, clusters, name="table-only")
    front.start(front.config([shop], ["--table"]))
    for host, path in [("shop.example.com", "/public/x"), ("shop.example.com", "/admin"), ("nowhere.example.com", "/x"),
                       ("shop.example.com", "/zzz")]:
        status, headers, body = front.get(host, path)
        want = core_answer(shop, host, path, [])
        check(answer(status, headers, body) == want, f"table-only: {host}{path} answers as the manifests "
                                                     f"({status} {body!r}, core {want!r})")
    before = front.envoy.log_text()
    check(front.push(front.config([shop])) is False, "table-only: a configuration with manifests is refused")
    check("loads precompiled tables only" in front.envoy.log_text()[len(before):], "table-only: the log says why")
    status, _, body = front.get("shop.example.com", "/public/x")
    check((status, body) == (200, "public:80"), f"table-only: the table keeps serving ({status} {body})")


def bad_plugin(config, manifest):
    """A listener whose filter configuration embeds a manifest file's text as is."""
    with open(manifest) as f:
        text = f.read()
    for f in config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]["http_filters"]:
        if f["name"] == "envoy.filters.http.wasm":
            plugin = f["typed_config"]["config"]["configuration"]
            value = json.loads(plugin["value"])
            value["manifests"] = text
            plugin["value"] = json.dumps(value)
    return config


def shipped_strip(envoys, workdir):
    """The shipped envoy/envoy.yaml, run on free ports: its HCM's early header mutation, as Envoy
    itself reads it (from /config_dump: no YAML parser needed)."""
    with open(os.path.join(ROOT, "envoy", "envoy.yaml")) as f:
        text = f.read()
    text = text.replace("port_value: 10000", "port_value: 0").replace("port_value: 9901", "port_value: 0")
    text = text.replace("address: 0.0.0.0", "address: 127.0.0.1")
    text = text.replace("filename: target/", f"filename: {harness.TARGET}/")
    path = write(workdir, "shipped.yaml", text)
    envoy = envoys.start("shipped", path, workdir).wait_ready()
    with urllib.request.urlopen(f"http://127.0.0.1:{envoy.admin}/config_dump?resource=static_listeners", timeout=5) as r:
        dump = json.load(r)
    listener = dump["configs"][0]["listener"]
    hcm = listener["filter_chains"][0]["filters"][0]["typed_config"]
    check(hcm.get("normalize_path") and hcm.get("merge_slashes")
          and hcm.get("path_with_escaped_slashes_action") in ("REJECT_REQUEST", "UNESCAPE_AND_REDIRECT"),
          "shipped envoy.yaml normalises paths and refuses escaped slashes")
    check(hcm.get("use_remote_address") is True, "shipped envoy.yaml sets x-forwarded-proto from the connection")
    envoy.stop()
    envoys.started.remove(envoy)
    return hcm["early_header_mutation_extensions"]


def fail_open(envoys, workdir, noop_wasm, shop):
    """A filter that panics per request, under FAIL_OPEN: Envoy skips it. With the shipped strip
    (envoy/envoy.yaml's, as Envoy reads it) the client's routing header is gone before routing;
    without it, the client picks the backend."""
    strip_config = shipped_strip(envoys, workdir)
    for strip in (True, False):
        name = f"fail-open-{'strip' if strip else 'nostrip'}"
        config = harness.envoy_config([shop], noop_wasm, 1, 2, 3)
        front = Front(envoys, workdir, noop_wasm, clusters_of(config), name=name,
                      extra=["--failure-policy", "FAIL_OPEN"])
        config = front.config([shop])
        hcm = config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
        plugin = hcm["http_filters"][0]["typed_config"]["config"]["configuration"]
        plugin["value"] = json.dumps({"panicPerRequest": True})
        if strip:
            hcm["early_header_mutation_extensions"] = strip_config
        else:
            del hcm["early_header_mutation_extensions"]
        front.start(config)
        answers = [front.get("shop.example.com", "/public", [("x-ingress-backend", "shop/admin:80")]) for _ in range(5)]
        reached_admin = [a for a in answers if a[2] == "admin:80"]
        if strip:
            check(not reached_admin, f"FAIL_OPEN with the shipped strip: client header never reaches admin "
                                     f"({[a[0] for a in answers]})")
        else:
            # The control: the same test finds the hole the strip closes (so the test above can fail).
            check(reached_admin, f"FAIL_OPEN without the strip lets the client pick (control) ({[a[0] for a in answers]})")


def soak(envoys, workdir, wasm, seconds):
    print(f"soak: reload every second for {seconds} s under steady load")
    a = write(workdir, "soak-a.yaml", SHOP)
    b = write(workdir, "soak-b.yaml", SHOP.replace("/a/b", "/a/c"))
    clusters = clusters_of(harness.envoy_config([a], wasm, 1, 2, 3)) + clusters_of(harness.envoy_config([b], wasm, 1, 2, 3))
    front = Front(envoys, workdir, wasm, clusters, name="soak")
    front.start(front.config([a]))
    configs = [front.config([a]), front.config([b])]
    stop = threading.Event()
    results = {"ok": 0, "bad": [], "reconnects": 0}
    lock = threading.Lock()

    def load():
        conn = None
        while not stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", front.port, timeout=5)
                conn.request("GET", "/public/x", headers={"Host": "shop.example.com"})
                r = conn.getresponse()
                body = r.read().decode()
                with lock:
                    if r.status == 200 and body == "public:80":
                        results["ok"] += 1
                    else:
                        results["bad"].append((r.status, body))
                if r.getheader("connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as e:
                # A closed connection is counted (ECDS leaves the listener alone: there must be none).
                if conn is not None:
                    conn.close()
                conn = None
                with lock:
                    results["reconnects"] += 1
                if not isinstance(e, (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)):
                    with lock:
                        results["bad"].append(("error", repr(e)))

    threads = [threading.Thread(target=load) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(2)  # warm up before the first memory reading
    rss_start = front.envoy.rss_kb()
    for i in range(seconds):
        check(front.push(configs[i % 2]), f"soak reload {i} applied")
        time.sleep(max(0.0, 1.0 - 0.05))
    time.sleep(1)
    rss_end = front.envoy.rss_kb()
    stop.set()
    for t in threads:
        t.join()
    print(f"  {results['ok']} requests answered 200, {len(results['bad'])} not, {results['reconnects']} "
          f"connections closed; RSS {rss_start} -> {rss_end} KiB")
    check(results["ok"] > 0 and not results["bad"], f"soak: no unexpected non-2xx ({results['bad'][:5]})")
    check(results["reconnects"] == 0, f"soak: no connection closed by a reload ({results['reconnects']})")
    check(rss_end <= rss_start * 1.25 + 8 * 1024, f"soak: memory flat ({rss_start} -> {rss_end} KiB)")


NGINX_DATA = os.path.join(ROOT, "tests", "data", "nginx")
# The header sets each nginx probe is sent with: none, then what the canaries of the test
# manifests read (canary.yaml: header X-Canary, cookie canary).
NGINX_HEADER_SETS = [(), (("X-Canary", "always"),), (("X-Canary", "never"), ("Cookie", "canary=always")),
                     (("Cookie", "a=1; canary=always"),)]


def probe_urls(manifest, workdir):
    """The probe URLs `ingress-router diff` derives from the manifests' paths (its tests file)."""
    tests = os.path.join(workdir, os.path.basename(manifest) + ".probes.json")
    cli("diff", "-f", manifest, "--tests", tests, check=False)
    with open(tests) as f:
        return [t["request"]["url"] for t in json.load(f)["tests"]]


def split_url(url):
    scheme, rest = url.split("://", 1)
    slash = rest.find("/")
    return scheme, rest[:slash], rest[slash:]


def behind_a_proxy(config):
    """The bootstrap with Envoy trusting the client's x-forwarded-proto (`use_remote_address: false`)."""
    for listener in config["static_resources"]["listeners"]:
        for chain in listener["filter_chains"]:
            for f in chain["filters"]:
                f["typed_config"]["use_remote_address"] = False
    return config


def compare_probes(front, manifest, flags, header_sets, kinds, workdir):
    """Sends every probe `diff` derives from `manifest` through the front, with each header set,
    and checks Envoy's answer against `ingress-router route --json` with the same flags: the
    backend and the path it received, a redirect's status and Location, a side of a split, the
    404 or 400. The scheme goes in x-forwarded-proto. Returns how many requests were compared."""
    urls = probe_urls(manifest, workdir)
    check(len(urls) > 0, f"{manifest}: diff derives probes")
    # The spec profile routes the path as Envoy normalised it (the HCM does it before the filter).
    core_flags = [*flags, *ENVOY_NORMALISATION] if "ingress-nginx" not in flags else flags
    compared = 0
    for url in urls:
        scheme, host, path = split_url(url)
        for headers in header_sets:
            h = [*headers, ("X-Forwarded-Proto", scheme)]
            status, got_headers, body = front.get(host, path, h)
            args = [a for k, v in headers for a in ("-H", f"{k}: {v}")]
            core = json.loads(cli("route", "-f", manifest, url, "--json", *core_flags, *args).stdout)
            what = f"{os.path.basename(manifest)} {' '.join(flags)} {url} {list(headers)}"
            compared += 1
            if core.get("redirect"):
                kinds.add("redirect")
                r = core["redirect"]
                check((status, got_headers.get("location")) == (r["status"], r["location"]),
                      f"{what}: Envoy {status} {got_headers.get('location')!r} == core redirect {r}")
            elif core.get("split"):
                kinds.add("split")
                sides = [s["label"] for s in core["split"]]
                check(status == 200 and body in sides, f"{what}: Envoy {status} {body!r} is a side of {sides}")
            elif core["label"] in ("404", "400"):
                kinds.add(core["label"])
                check(str(status) == core["label"], f"{what}: Envoy {status} == core {core['label']}")
            else:
                kinds.add("backend")
                upstream = core.get("upstreamPath") or path
                if core.get("upstreamPath"):
                    kinds.add("rewrite")
                # Envoy's normalize_path escapes characters such as `|` before any filter runs.
                seen = urllib.parse.unquote(got_headers.get("x-seen-path", ""))
                check((status, body, seen) == (200, core["label"], urllib.parse.unquote(upstream)),
                      f"{what}: Envoy {status} {body!r} at {seen!r} == core {core['label']!r} at {upstream!r}")
    return compared


def nginx_profile(envoys, workdir, wasm):
    print("ingress-nginx profile: diff's probes through Envoy, with and without canary headers")
    flags = ["--profile", "ingress-nginx"]
    manifests = sorted(os.path.join(NGINX_DATA, f) for f in os.listdir(NGINX_DATA) if f.endswith(".yaml"))
    clusters = [c for m in manifests for c in clusters_of(harness.envoy_config([m], wasm, 1, 2, 3, flags))]
    front = Front(envoys, workdir, wasm, clusters, name="nginx")
    compared, kinds = 0, set()
    for i, manifest in enumerate(manifests):
        # The probes say their scheme in x-forwarded-proto, as a TLS-terminating proxy in front
        # would: this Envoy trusts it (the shipped edge setting is checked at the end).
        config = behind_a_proxy(front.config([manifest], flags))
        if i == 0:
            front.start(config)
        elif not check(front.push(config), f"{manifest}: listener update applied"):
            continue
        compared += compare_probes(front, manifest, flags, NGINX_HEADER_SETS, kinds, workdir)
    print(f"  {compared} requests compared with the core ({', '.join(sorted(kinds))})")
    check({"redirect", "split", "rewrite", "backend", "404"} <= kinds, f"the probes reach every kind of answer ({kinds})")

    # At the edge (envoy-config's and envoy.yaml's `use_remote_address: true`) a client over http
    # cannot claim https to skip the TLS redirect.
    rewrite = os.path.join(NGINX_DATA, "api-rewrite.yaml")
    check(front.push(front.config([rewrite], flags)), "api-rewrite.yaml applied at the edge")
    status, headers, _ = front.get("shop.example.com", "/api/users", [("X-Forwarded-Proto", "https")])
    check((status, headers.get("location")) == (308, "https://shop.example.com/api/users"),
          f"at the edge a client's x-forwarded-proto does not skip ssl-redirect ({status} {headers.get('location')})")

    # A canary weight splits traffic: canary.yaml sends 10 in 100 to checkout-v2.
    canary = os.path.join(NGINX_DATA, "canary.yaml")
    check(front.push(front.config([canary], flags)), "canary.yaml applied")
    bodies = [front.get("pay.example.com", "/checkout")[2] for _ in range(600)]
    share = bodies.count("checkout-v2:80") / len(bodies)
    check(bodies.count("checkout-v2:80") + bodies.count("checkout:80") == len(bodies), f"split answers ({set(bodies)})")
    # 10%: the standard deviation over 600 draws is 1.2 points; 5 points either side is over 4 of them.
    check(0.05 <= share <= 0.15, f"canary share {share:.3f} is 10% give or take 5 points")
    print(f"  canary weight 10: {share:.1%} of 600 requests went to the canary")


CORPUS = os.path.join(ROOT, "tests", "corpus")


def corpus(envoys, workdir, wasm):
    """The real-world corpus files the apiserver would accept, through Envoy with each profile."""
    print("corpus: the valid real-world files, diff's probes through Envoy, spec and ingress-nginx")
    with open(os.path.join(CORPUS, "expected.yaml")) as f:
        valid = re.findall(r"^  (\S+): \{exit: 0\b", f.read(), re.M)
    runs, skipped = [], []
    for name in valid:
        manifest = os.path.join(CORPUS, "files", name)
        for flags in ([], ["--profile", "ingress-nginx"]):
            try:
                clusters = clusters_of(harness.envoy_config([manifest], wasm, 1, 2, 3, flags))
            except RuntimeError as e:
                # envoy-config needs every named port resolved by a Service in the input.
                skipped.append(f"{name} {' '.join(flags)}: {str(e).splitlines()[-1]}")
                continue
            runs.append((manifest, flags, clusters))
    check(len(runs) >= 40, f"most valid corpus files make a bootstrap ({len(runs)})")
    front = Front(envoys, workdir, wasm, [c for _, _, cs in runs for c in cs], name="corpus")
    compared, kinds, refused = 0, set(), 0
    for i, (manifest, flags, _) in enumerate(runs):
        config = behind_a_proxy(front.config([manifest], flags))
        if i == 0:
            front.start(config)
        elif not front.push(config):
            # Refused: the filter's log names why (an Ingress another class serves, ...).
            refused += 1
            continue
        compared += compare_probes(front, manifest, flags, [()], kinds, workdir)
    print(f"  {len(runs)} file and profile pairs, {compared} requests compared with the core "
          f"({', '.join(sorted(kinds))}); {refused} configurations refused by the filter; "
          f"{len(skipped)} without a bootstrap (a named port no Service resolves)")
    check(refused == 0, f"the filter accepts every valid corpus file ({refused} refused)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasm", required=True)
    parser.add_argument("--noop-wasm", required=True)
    parser.add_argument("--table-wasm", required=True, help="the filter built without `manifests` (table-only)")
    parser.add_argument("--soak-seconds", type=int, default=10)
    parser.add_argument("--only", choices=["conformance", "faults", "table-only", "nginx", "corpus", "soak"])
    args = parser.parse_args()
    wasm, noop = os.path.abspath(args.wasm), os.path.abspath(args.noop_wasm)
    workdir = tempfile.mkdtemp(prefix="ingress-router-e2e-")
    envoys = Envoys()
    try:
        if args.only in (None, "conformance"):
            conformance(envoys, workdir, wasm)
            envoys.stop_all()
        if args.only in (None, "faults"):
            faults(envoys, workdir, wasm, noop)
            envoys.stop_all()
        if args.only in (None, "table-only"):
            table_only(envoys, workdir, os.path.abspath(args.table_wasm))
            envoys.stop_all()
        if args.only in (None, "nginx"):
            nginx_profile(envoys, workdir, wasm)
            envoys.stop_all()
        if args.only in (None, "corpus"):
            corpus(envoys, workdir, wasm)
            envoys.stop_all()
        if args.only in (None, "soak"):
            soak(envoys, workdir, wasm, args.soak_seconds)
    finally:
        envoys.stop_all()
    if failures:
        print(f"{len(failures)} checks failed (logs in {workdir})")
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    print("all Envoy end-to-end checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

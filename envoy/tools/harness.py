"""Running real Envoys on loopback for the demo, the end-to-end tests and the benchmark.

Every process started here is recorded and stopped by its PID (`Envoys.stop_all`). Ports are
chosen free by the kernel. Configurations come from `ingress-router envoy-config`; this module only
rearranges them (file-based LDS and CDS, stand-in backends).
"""

import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "ingress-router")
ENVOY = os.environ.get("ENVOY", os.path.join(CACHE, "venv", "bin", "envoy"))
ROUTING_HEADER = "x-ingress-backend"
# Where cargo builds (CARGO_TARGET_DIR when set, as the Makefile reads it).
TARGET = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")


def free_port():
    """A port free now (the interactive demo's fixed ports; tests give Envoy 0 instead)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli(*args, check=True):
    """Runs the ingress-router CLI (INGRESS_ROUTER or the debug build, under CARGO_TARGET_DIR when set)."""
    binary = os.environ.get("INGRESS_ROUTER", os.path.join(TARGET, "debug", "ingress-router"))
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"ingress-router {args[0]} refused the manifests:\n{result.stderr.strip()}")
    return result


def envoy_config(manifests, wasm, listen, admin, upstream, extra=()):
    """The bootstrap `envoy-config` writes, as a dict. `manifests`: files or folders."""
    args = ["envoy-config", "--wasm", wasm, "--listen", f"127.0.0.1:{listen}", "--admin", f"127.0.0.1:{admin}",
            "--upstream", f"127.0.0.1:{upstream}", "--resource-upstream", f"127.0.0.1:{upstream}"]
    for m in manifests:
        args += ["-f", m]
    return json.loads(cli(*args, *extra).stdout)


def label(cluster):
    """What a stand-in backend answers for a cluster: `<service>:<port>` or `resource:<apiGroup>/<Kind>/<name>`."""
    namespace, rest = cluster.split("/", 1)
    if rest.startswith("resource/"):
        return "resource:" + rest[len("resource/"):]
    return rest


def atomic_write(path, value):
    """Writes JSON and moves it into place in one step: Envoy never reads half a file."""
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        json.dump(value, f)
    os.rename(tmp, path)


def discovery(type_url, resources, version):
    return {"version_info": str(version), "resources": [{"@type": type_url, **r} for r in resources]}


LISTENER = "type.googleapis.com/envoy.config.listener.v3.Listener"
CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster"
EXTENSION = "type.googleapis.com/envoy.config.core.v3.TypedExtensionConfig"
WASM = "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm"
# The filter's name in the listener and in the ECDS resource (`envoy-config --ecds`, `--format ecds`).
FILTER = "ingress-router"
# Envoy's counters for the filter's configuration (ECDS) and the listener (LDS).
ECDS_STATS = f"extension_config_discovery.http_filter.{FILTER}."
LDS_STATS = "listener_manager.lds."


def source(path):
    """A file config source; Envoy re-reads the file whenever something moves into its folder."""
    return {"resource_api_version": "V3", "path_config_source": {
        "path": path, "watched_directory": {"path": os.path.dirname(path)}}}


class Dynamic:
    """A front Envoy whose listener (LDS), clusters (CDS) and filter configuration (ECDS) come from
    files in `directory`, replaced atomically. An edit of the manifests changes only the filter's
    configuration: it goes through ECDS, which swaps the filter's table and leaves the listener (and
    its connections) alone; Envoy rejects a bad one and the previous keeps serving."""

    def __init__(self, directory):
        # One folder each: Envoy re-reads a watched file whenever anything moves into its folder,
        # and a shared folder would re-apply the previous listener each time the clusters change.
        self.directory = directory
        self.lds = os.path.join(directory, "lds", "lds.json")
        self.cds = os.path.join(directory, "cds", "cds.json")
        self.ecds = os.path.join(directory, "ecds", "filter.json")
        for path in (self.lds, self.cds, self.ecds):
            os.makedirs(os.path.dirname(path), exist_ok=True)
        self.version = 0
        self.listeners = self.filter = None

    def bootstrap(self, config):
        """The bootstrap with its listener, clusters and filter configuration moved to the watched files."""
        self.push(config)
        return {"admin": config["admin"], "node": {"id": FILTER, "cluster": FILTER},
                "dynamic_resources": {"lds_config": source(self.lds), "cds_config": source(self.cds)}}

    def split(self, listeners):
        """The listeners with the Wasm filter taking its configuration from ECDS, and that
        configuration (None without the filter: native routes)."""
        listeners = json.loads(json.dumps(listeners))
        found = None
        for listener in listeners:
            for chain in listener["filter_chains"]:
                for network in chain["filters"]:
                    filters = network["typed_config"].get("http_filters", [])
                    for i, f in enumerate(filters):
                        if f.get("typed_config", {}).get("@type") == WASM:
                            found = f["typed_config"]
                            filters[i] = {"name": FILTER, "config_discovery": {
                                "config_source": source(self.ecds), "type_urls": [WASM]}}
        return listeners, found

    def push(self, config, clusters=True):
        """Writes what changed: the clusters, the filter configuration, then the listener (a
        listener may only name existing clusters). Returns the parts written ("ecds", "lds")."""
        static = config["static_resources"]
        if clusters:
            self.push_clusters(static["clusters"])
        listeners, filter_config = self.split(static["listeners"])
        written = []
        if filter_config is not None and filter_config != self.filter:
            self.version += 1
            atomic_write(self.ecds, discovery(EXTENSION, [{"name": FILTER, "typed_config": filter_config}], self.version))
            self.filter = filter_config
            written.append("ecds")
        if listeners != self.listeners:
            self.version += 1
            atomic_write(self.lds, discovery(LISTENER, listeners, self.version))
            self.listeners = listeners
            written.append("lds")
        return written

    def push_clusters(self, clusters):
        self.version += 1
        atomic_write(self.cds, discovery(CLUSTER, clusters, self.version))


def counters(envoy):
    """The ECDS and LDS update counters, to wait for what a push did."""
    return {**envoy.stats(ECDS_STATS), **envoy.stats(LDS_STATS)}


def wait_listening(envoy, timeout=15):
    """Until the listener is active: it warms until its filter configuration arrived."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = envoy.stats("listener_manager.total_listeners")
        if s.get("listener_manager.total_listeners_active", 0) >= 1 and s.get("listener_manager.total_listeners_warming", 0) == 0:
            return envoy
        time.sleep(0.05)
    raise RuntimeError(f"no active listener after {timeout}s:\n{envoy.log_text()[-3000:]}")


def wait_applied(envoy, written, before, timeout=15):
    """Until Envoy applied (True) or rejected (False) every part of a push (`Dynamic.push`)."""
    prefix = {"ecds": ECDS_STATS, "lds": LDS_STATS}
    deadline = time.time() + timeout
    while time.time() < deadline:
        now = counters(envoy)
        grew = lambda key: now.get(key, 0) > before.get(key, 0)
        if any(grew(prefix[part] + "update_rejected") for part in written):
            return False
        done = all(grew(prefix[part] + "update_success") for part in written)
        if done:
            wait_listening(envoy, timeout)
            return True
        time.sleep(0.05)
    raise RuntimeError(f"update of {written} not applied in {timeout}s:\n{envoy.log_text()[-3000:]}")


class Envoy:
    """One Envoy process. Ports: give 0 and let Envoy bind (concurrent runs never collide); the
    admin port Envoy chose is read from `--admin-address-path`, a listener's from the admin API."""

    def __init__(self, name, config, directory, concurrency=1, extra=()):
        self.name = name
        self.log_path = os.path.join(directory, f"{name}.log")
        self.address_path = os.path.join(directory, f"{name}.admin-address")
        if os.path.exists(self.address_path):
            os.remove(self.address_path)
        self._admin = None
        if isinstance(config, str):  # a configuration file as is
            self.config_path = config
        else:
            self.config_path = os.path.join(directory, f"{name}.json")
            with open(self.config_path, "w") as f:
                json.dump(config, f)
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [ENVOY, "-c", self.config_path, "--concurrency", str(concurrency), "--disable-hot-restart",
             "--drain-time-s", "1", "--parent-shutdown-time-s", "2", "-l", "warning",
             "--admin-address-path", self.address_path, *extra],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.pid = self.process.pid

    @property
    def admin(self):
        """The admin port (None until Envoy has bound it)."""
        if self._admin is None and os.path.exists(self.address_path):
            with open(self.address_path) as f:
                text = f.read().strip()
            if text:
                self._admin = int(text.rsplit(":", 1)[1])
        return self._admin

    def listener_port(self, index=0):
        """The port a listener is bound to (its address may say 0)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.admin}/listeners?format=json", timeout=5) as r:
            statuses = json.load(r)["listener_statuses"]
        return statuses[index]["local_address"]["socket_address"]["port_value"]

    def wait_ready(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"envoy {self.name} exited ({self.process.returncode}):\n{self.log_text()[-3000:]}")
            try:
                if self.admin is not None:
                    with urllib.request.urlopen(f"http://127.0.0.1:{self.admin}/ready", timeout=1) as r:
                        if r.status == 200:
                            return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"envoy {self.name} not ready after {timeout}s:\n{self.log_text()[-3000:]}")

    def log_text(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def stats(self, pattern=""):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.admin}/stats?filter={pattern}", timeout=5) as r:
            out = {}
            for line in r.read().decode().splitlines():
                key, _, value = line.partition(": ")
                if value.strip().lstrip("-").isdigit():
                    out[key] = int(value)
            return out

    def stat(self, name):
        return self.stats("^" + re.escape(name) + "$").get(name, 0)

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_ticks(self):
        """utime + stime of the Envoy process, in clock ticks (/proc/<pid>/stat)."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


class Envoys:
    """Every Envoy started, stopped together by PID."""

    def __init__(self):
        self.started = []

    def start(self, *args, **kwargs):
        e = Envoy(*args, **kwargs)
        self.started.append(e)
        return e

    def stop_all(self):
        for e in reversed(self.started):
            e.stop()
        self.started.clear()


def stand_in_config(clusters, listen, admin):
    """A second Envoy that answers 200 with the label of the cluster named by the routing header
    (`cluster_header` routed on exactly that value), and the path it received in `x-seen-path`."""
    routes = [{"match": {"prefix": "/", "headers": [{"name": ROUTING_HEADER, "string_match": {"exact": c}}]},
               "direct_response": {"status": 200, "body": {"inline_string": label(c)}}} for c in sorted(set(clusters))]
    routes.append({"match": {"prefix": "/"},
                   "direct_response": {"status": 299, "body": {"inline_string": "stand-in: unknown cluster"}}})
    hcm = {"@type": "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
           "stat_prefix": "stand_in",
           "route_config": {"virtual_hosts": [{"name": "all", "domains": ["*"], "routes": routes,
                                               "response_headers_to_add": [{"header": {"key": "x-seen-path", "value": "%REQ(:PATH)%"}}]}]},
           "http_filters": [{"name": "envoy.filters.http.router", "typed_config": {
               "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"}}]}
    return {"admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": admin}}},
            "static_resources": {"listeners": [{"name": "stand_in", "address": {"socket_address": {
                "address": "127.0.0.1", "port_value": listen}}, "filter_chains": [{"filters": [{
                    "name": "envoy.filters.network.http_connection_manager", "typed_config": hcm}]}]}]}}


def complete(data):
    """Whether `data` holds a whole response with a Content-Length (Envoy may keep the connection
    open for a moment after a local reply, despite `Connection: close`)."""
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        return False
    match = re.search(rb"(?im)^content-length:\s*(\d+)\s*$", head)
    return match is not None and len(body) >= int(match.group(1))


def raw_request(port, host, path, headers=(), timeout=5, version="HTTP/1.1", method="GET"):
    """One request with exactly these bytes on the wire (odd paths and Host headers included).
    Returns (status, headers dict lower-cased, body)."""
    lines = [f"{method} {path} {version}"]
    if host is not None:
        lines.append(f"Host: {host}")
    lines += [f"{k}: {v}" for k, v in headers]
    lines += ["Connection: close", "", ""]
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall("\r\n".join(lines).encode("latin-1"))
        data = b""
        while not complete(data):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    head_lines = head.decode("latin-1").split("\r\n")
    status = int(head_lines[0].split()[1]) if head_lines and len(head_lines[0].split()) > 1 else 0
    hdrs = {}
    for line in head_lines[1:]:
        k, _, v = line.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return status, hdrs, body.decode("utf-8", "replace")

//! The filter: the root context owns the compiled table (one per worker VM); each request gets a
//! small HTTP context that reads `:authority` and `:path`, asks the table, and either sets the
//! routing header to the chosen cluster or answers itself. Host calls only: every decision comes
//! from `routing`.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, ContextType, GrpcStatusCode, LogLevel, MetricType, Status};

use crate::config::{DEBUG_HEADER, PluginConfig};
use ingress_router::decision::HeaderAction;
use ingress_router::{Request, Scheme};

use crate::routing::{Outcome, Table};

/// The response header a local reply carries to say why it was sent.
const REASON_HEADER: &str = "x-ingress-router-reason";
/// With the debug header on: the invalid Ingresses the configuration left out.
const EXCLUDED_HEADER: &str = "x-ingress-router-excluded";
const NOT_FOUND_BODY: &[u8] = b"no rule or default backend for this host and path\n";

/// A counter: its host id, and what requests added since it was last flushed to the host. Requests
/// only add to a cell; the root context flushes every second (and when a configuration is
/// replaced), so a request makes no host call for metrics.
struct Counter {
    id: u32,
    pending: Cell<u64>,
}

impl Counter {
    fn define(name: &str) -> Result<Counter, Status> {
        Ok(Counter { id: hostcalls::define_metric(MetricType::Counter, name)?, pending: Cell::new(0) })
    }

    fn add(&self) {
        self.pending.set(self.pending.get() + 1);
    }

    fn flush(&self) {
        let n = self.pending.replace(0);
        if n > 0 {
            // A failed counter update must never fail anything.
            let _ = hostcalls::increment_metric(self.id, i64::try_from(n).unwrap_or(i64::MAX));
        }
    }
}

struct Metrics {
    routed: Counter,
    default_backend: Counter,
    not_found: Counter,
    rejected: Counter,
    redirected: Counter,
    /// Requests whose regex budget (`regexLimits.scan`) ran out: some regexes answered "no match"
    /// unread. Each is also logged.
    regex_budget_exhausted: Counter,
    /// By Ingress (age rank): requests it routed, by a rule or its defaultBackend.
    per_ingress: Vec<Counter>,
}

impl Metrics {
    /// `ingresses`: `namespace/name` of each Ingress served (none for a Gateway).
    fn define(ingresses: &[String]) -> Result<Metrics, Status> {
        Ok(Metrics {
            routed: Counter::define("ingress_router.routed")?,
            default_backend: Counter::define("ingress_router.default_backend")?,
            not_found: Counter::define("ingress_router.not_found")?,
            rejected: Counter::define("ingress_router.rejected")?,
            redirected: Counter::define("ingress_router.redirected")?,
            regex_budget_exhausted: Counter::define("ingress_router.regex_budget_exhausted")?,
            per_ingress: ingresses
                .iter()
                .map(|key| Counter::define(&format!("ingress_router.ingress.{}.routed", key.replace('/', "."))))
                .collect::<Result<_, _>>()?,
        })
    }

    fn flush(&self) {
        for c in [
            &self.routed,
            &self.default_backend,
            &self.not_found,
            &self.rejected,
            &self.redirected,
            &self.regex_budget_exhausted,
        ] {
            c.flush();
        }
        self.per_ingress.iter().for_each(Counter::flush);
    }
}

impl Drop for Metrics {
    /// A replaced configuration's last counts (its requests may outlive the swap).
    fn drop(&mut self) {
        self.flush();
    }
}

/// What every request of one configuration shares.
struct Shared {
    table: Table,
    metrics: Metrics,
    routing_header: String,
    debug_header: bool,
    /// `namespace/name, …` of the invalid Ingresses left out, for the debug output.
    excluded: Option<String>,
    /// The Gateway listener port every request arrives on (`gatewayPort`), else the `Host` header's.
    gateway_port: Option<u16>,
    /// The request headers the table reads (none with the spec profile), asked once.
    header_names: Vec<String>,
    /// The state of the draws the core picks a side of a weighted split by (SplitMix64).
    draws: Cell<u64>,
}

impl Shared {
    /// The next draw, uniform over `u64`. Each request draws once, as ingress-nginx's balancer does.
    fn draw(&self) -> u64 {
        let state = self.draws.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
        self.draws.set(state);
        mix(state)
    }
}

#[derive(Default)]
pub struct Root {
    shared: Option<Rc<Shared>>,
    /// `None` until a request finds out whether the host has `clear_route_cache`.
    clear_route_cache: Rc<Cell<Option<bool>>>,
    /// Configurations compiled so far: part of the next table's seed.
    configured: u64,
}

impl Context for Root {}

impl Root {
    /// The seed of the table's hashes: the host clock in nanoseconds (when Envoy started and when
    /// the configuration arrived, unknown to whoever writes an Ingress), with the number of
    /// configurations this VM compiled, through a 64-bit mixer (SplitMix64's finaliser).
    fn seed(&mut self) -> u64 {
        self.configured += 1;
        let nanos = self.get_current_time().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        mix(nanos ^ self.configured.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

impl RootContext for Root {
    fn on_configure(&mut self, _size: usize) -> bool {
        // The log says what a push costs this VM (every worker VM configures on its own).
        let started = self.get_current_time();
        let bytes = self.get_plugin_configuration().unwrap_or_default();
        let size = bytes.len();
        let config = match PluginConfig::parse(&bytes) {
            Ok(c) => c,
            Err(e) => {
                log(LogLevel::Error, &format!("configuration refused: {e}"));
                return false;
            }
        };
        let seed = self.seed();
        // The manifests read (or the table decoded), the configuration's bytes go before the
        // table is compiled: the VM's memory keeps its high-water mark, so what is alive at once
        // is what a worker costs.
        let (table, report, read) = match config.table_bytes() {
            Some(Ok(table)) => {
                let read = self.get_current_time();
                let config = config.without_manifests();
                drop(bytes);
                let (table, report) = Table::load(&config, &table, seed);
                (table.map(|t| (t, config)), report, read)
            }
            Some(Err(e)) => {
                log(LogLevel::Error, &format!("configuration refused: {e}; the previous configuration keeps serving"));
                return false;
            }
            #[cfg(not(feature = "manifests"))]
            None => {
                log(
                    LogLevel::Error,
                    "configuration refused: this build of the filter loads precompiled tables only (`table`, as \
                     `ingress-router envoy-config --table` writes it); manifests need the full filter",
                );
                return false;
            }
            #[cfg(feature = "manifests")]
            None => {
                let manifests = Table::read(&config);
                let read = self.get_current_time();
                let config = config.without_manifests();
                drop(bytes);
                let (table, report) = manifests.compile(&config, seed);
                (table.map(|t| (t, config)), report, read)
            }
        };
        for warning in &report.warnings {
            log(LogLevel::Warn, warning);
        }
        for error in &report.errors {
            log(LogLevel::Error, error);
        }
        let Some((table, config)) = table else {
            log(
                LogLevel::Error,
                &format!(
                    "configuration refused ({} problems above); the previous configuration keeps serving",
                    report.errors.len()
                ),
            );
            return false;
        };
        let metrics = match Metrics::define(&table.ingresses) {
            Ok(m) => m,
            Err(status) => {
                log(LogLevel::Error, &format!("defining metrics failed: {status:?}"));
                return false;
            }
        };
        // A gauge: how many invalid Ingresses the serving configuration leaves out.
        match hostcalls::define_metric(MetricType::Gauge, "ingress_router.invalid_ingresses") {
            Ok(id) => {
                let _ = hostcalls::record_metric(id, report.excluded.len() as u64);
            }
            Err(status) => log(LogLevel::Warn, &format!("defining the invalid_ingresses gauge failed: {status:?}")),
        }
        let excluded = (!report.excluded.is_empty()).then(|| report.excluded.join(", "));
        let ms =
            |from: std::time::SystemTime| self.get_current_time().duration_since(from).map_or(0, |d| d.as_millis());
        log(
            LogLevel::Info,
            &format!(
                "serving {}, {} clusters; configured in {} ms ({} bytes, {} ms of them reading the configuration); \
                 the VM's memory {} KiB",
                table.serving,
                table.clusters.len(),
                ms(started),
                size,
                read.duration_since(started).map_or(0, |d| d.as_millis()),
                memory_kib(),
            ),
        );
        self.set_tick_period(Duration::from_secs(1));
        self.shared = Some(Rc::new(Shared {
            header_names: table.header_names().to_vec(),
            table,
            metrics,
            routing_header: config.routing_header,
            debug_header: config.debug_header,
            gateway_port: config.gateway_port,
            excluded,
            draws: Cell::new(mix(!seed)),
        }));
        true
    }

    fn on_tick(&mut self) {
        if let Some(shared) = &self.shared {
            shared.metrics.flush();
        }
    }

    fn create_http_context(&self, _context_id: u32) -> Option<Box<dyn HttpContext>> {
        Some(Box::new(Filter {
            shared: self.shared.clone(),
            clear_route_cache: self.clear_route_cache.clone(),
            debug: None,
        }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}

struct Filter {
    /// `None` only if Envoy sends requests to a VM that never configured (it does not).
    shared: Option<Rc<Shared>>,
    clear_route_cache: Rc<Cell<Option<bool>>>,
    /// For the debug header: what answered, in one line.
    debug: Option<String>,
}

impl Context for Filter {}

impl HttpContext for Filter {
    fn on_http_request_headers(&mut self, _headers: usize, _end_of_stream: bool) -> Action {
        let Some(shared) = self.shared.clone() else {
            self.local_reply(503, "filter not configured", &[], b"ingress-router is not configured\n");
            return Action::Pause;
        };
        let table = &shared.table;
        // Host-owned buffers: the only allocations of a request with the spec profile (the core
        // allocates none). The scheme, the method and other headers only when the core says the
        // table reads them (the ingress-nginx profile's redirects and canaries, the Gateway API's
        // listeners and matches); the headers as one map, since a repeated header matches when
        // any of its values does.
        let host = self.get_http_request_header_bytes(":authority").unwrap_or_default();
        let path = self.get_http_request_header_bytes(":path").unwrap_or_default();
        let method = if table.reads_method() { self.get_http_request_header(":method") } else { None };
        let values: Vec<(String, String)> = if shared.header_names.is_empty() {
            Vec::new()
        } else {
            self.get_http_request_headers_bytes()
                .into_iter()
                .filter(|(name, _)| shared.header_names.iter().any(|n| n.eq_ignore_ascii_case(name)))
                .map(|(name, value)| {
                    let value =
                        String::from_utf8(value).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                    (name, value)
                })
                .collect()
        };
        let headers: Vec<(&str, &str)> = values.iter().map(|(name, value)| (name.as_str(), value.as_str())).collect();
        let mut request = Request::from_bytes(&host, &path).with_headers(&headers);
        if table.reads_scheme() && self.https() {
            request = request.with_scheme(Scheme::Https);
        }
        if let Some(method) = &method {
            request = request.with_method(method);
        }
        if let Some(port) = shared.gateway_port {
            request = request.with_port(port);
        }
        let m = &shared.metrics;
        let routed = table.route(&request, shared.draw());
        if routed.regex_budget_exhausted {
            regex_budget_exhausted(m, "regexes", &host, &path);
        }
        match routed.outcome {
            Outcome::Backend { cluster, ingress, via_default, answer, modifications } => {
                for action in &modifications.headers {
                    match *action {
                        HeaderAction::Set { name, value } => self.set_http_request_header(name, Some(value)),
                        HeaderAction::Add { name, value } => self.add_http_request_header(name, value),
                        HeaderAction::Remove { name } => self.set_http_request_header(name, None),
                    }
                }
                if let Some(host) = modifications.host {
                    self.set_http_request_header(":authority", Some(host));
                }
                if let Some(path) = &modifications.path {
                    self.set_http_request_header(":path", Some(path));
                }
                // Last, so that no header modifier can name the cluster: the client never picks it.
                self.set_http_request_header_bytes(&shared.routing_header, Some(cluster.as_bytes()));
                self.clear_route_cache();
                if via_default { &m.default_backend } else { &m.routed }.add();
                if let Some(counter) = ingress.and_then(|i| m.per_ingress.get(i)) {
                    counter.add();
                }
                if shared.debug_header {
                    self.debug = Some(table.debug_text(&request, answer));
                }
                Action::Continue
            }
            Outcome::Redirect { status, location } => {
                m.redirected.add();
                self.local_reply(status, "redirect", &[("location", &location)], b"");
                Action::Pause
            }
            Outcome::Local { status, reason } if self.grpc_reply(&request, status, reason) => {
                if status == 404 { &m.not_found } else { &m.rejected }.add();
                Action::Pause
            }
            Outcome::Local { status: 404, reason } => {
                m.not_found.add();
                self.local_reply(404, reason, &[], NOT_FOUND_BODY);
                Action::Pause
            }
            Outcome::Local { status, reason } => {
                m.rejected.add();
                let body = format!("{status} {reason}\n");
                self.local_reply(status, reason, &[], body.as_bytes());
                Action::Pause
            }
        }
    }

    fn on_http_response_headers(&mut self, _headers: usize, _end_of_stream: bool) -> Action {
        if let (Some(debug), Some(shared)) = (&self.debug, self.shared.as_deref()) {
            self.set_http_response_header(DEBUG_HEADER, Some(debug));
            if let Some(excluded) = &shared.excluded {
                self.set_http_response_header(EXCLUDED_HEADER, Some(excluded));
            }
        }
        Action::Continue
    }
}

impl Filter {
    fn clear_route_cache(&self) {
        crate::clear_route_cache(&self.clear_route_cache);
    }

    /// Answers a gRPC call the proxy does not forward as its client reads it: a trailers-only
    /// response (HTTP 200, `grpc-status` as the core says, `grpc-message` the reason, the reason
    /// header as metadata); `false` when the request is not a gRPC call. The method and
    /// `content-type` are read only here.
    fn grpc_reply(&self, request: &Request<'_>, status: u32, reason: &str) -> bool {
        let (Some(method), Some(content_type)) =
            (self.get_http_request_header(":method"), self.get_http_request_header("content-type"))
        else {
            return false;
        };
        let headers = [("content-type", content_type.as_str())];
        let call = request.with_headers(&headers).with_method(&method);
        let unavailable = reason == "invalid-backend" || reason == "noValidBackend";
        let Some(code) = call.grpc_status(u16::try_from(status).unwrap_or(500), unavailable) else { return false };
        self.send_grpc_response(grpc_code(code), Some(reason), vec![(REASON_HEADER, reason.as_bytes())]);
        true
    }

    fn local_reply(&self, status: u32, reason: &str, extra: &[(&str, &str)], body: &[u8]) {
        let mut headers = vec![(REASON_HEADER, reason), ("content-type", "text/plain")];
        headers.extend_from_slice(extra);
        self.send_http_response(status, headers, Some(body));
    }

    /// Whether the request came over TLS: `x-forwarded-proto` (which Envoy sets from the
    /// connection at the edge, `use_remote_address: true`, and passes on from a trusted proxy
    /// otherwise), else `:scheme` — the way ingress-nginx reads `$pass_access_scheme`.
    fn https(&self) -> bool {
        let proto =
            self.get_http_request_header("x-forwarded-proto").or_else(|| self.get_http_request_header(":scheme"));
        proto.is_some_and(|p| p.split(',').next().is_some_and(|first| first.trim().eq_ignore_ascii_case("https")))
    }
}

/// The VM's linear memory: its high-water mark, since a WebAssembly memory never shrinks (what a
/// worker keeps of every configuration it read).
fn memory_kib() -> usize {
    #[cfg(target_arch = "wasm32")]
    return core::arch::wasm32::memory_size(0) * 64;
    #[cfg(not(target_arch = "wasm32"))]
    0
}

/// SplitMix64's finaliser: a 64-bit mixer for seeds and draws.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A request whose regex budget ran out: counted, and logged with its host and path (the only
/// case that allocates for the log). Its answer stands as the core decided it.
#[cold]
fn regex_budget_exhausted(metrics: &Metrics, regexes: &str, host: &[u8], path: &[u8]) {
    metrics.regex_budget_exhausted.add();
    log(LogLevel::Warn, &crate::report::regex_budget_line(regexes, host, path));
}

fn log(level: LogLevel, message: &str) {
    let _ = hostcalls::log(level, message);
}

/// The proxy-wasm code of a gRPC status number (the core's, 0 to 16).
fn grpc_code(code: u8) -> GrpcStatusCode {
    use GrpcStatusCode::*;
    const CODES: [GrpcStatusCode; 17] = [
        Ok,
        Cancelled,
        Unknown,
        InvalidArgument,
        DeadlineExceeded,
        NotFound,
        AlreadyExists,
        PermissionDenied,
        ResourceExhausted,
        FailedPrecondition,
        Aborted,
        OutOfRange,
        Unimplemented,
        Internal,
        Unavailable,
        DataLoss,
        Unauthenticated,
    ];
    CODES.get(usize::from(code)).copied().unwrap_or(Unknown)
}

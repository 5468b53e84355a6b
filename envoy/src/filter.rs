//! The filter: the root context owns the compiled table (one per worker VM); each request gets a
//! small HTTP context that reads `:authority` and `:path`, asks the table, and either sets the
//! routing header to the chosen cluster or answers itself. Host calls only: every decision comes
//! from `routing`.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, ContextType, LogLevel, MetricType, Status};

use crate::config::{DEBUG_HEADER, PluginConfig};
use crate::gateway::{GatewayOutcome, GatewayTable};
use ingress_router::gateway::{GatewayRequest, HeaderAction};
use ingress_router::{Request, Scheme};

use crate::routing::{Outcome, Routing};

/// The response header a local reply carries to say why it was sent.
const REASON_HEADER: &str = "x-ingress-router-reason";
/// With the debug header on: the invalid Ingresses the configuration left out.
const EXCLUDED_HEADER: &str = "x-ingress-router-excluded";
const NOT_FOUND_BODY: &[u8] = b"no Ingress rule or default backend for this host and path\n";

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
    routing: Routing,
    metrics: Metrics,
    routing_header: String,
    debug_header: bool,
    /// `namespace/name, …` of the invalid Ingresses left out, for the debug output.
    excluded: Option<String>,
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
        let config = match PluginConfig::parse(&bytes) {
            Ok(c) => c,
            Err(e) => {
                log(LogLevel::Error, &format!("configuration refused: {e}"));
                return false;
            }
        };
        let seed = self.seed();
        let read = self.get_current_time();
        let (routing, report) = Routing::build(&config, seed);
        for warning in &report.warnings {
            log(LogLevel::Warn, warning);
        }
        for error in &report.errors {
            log(LogLevel::Error, error);
        }
        let Some(routing) = routing else {
            log(
                LogLevel::Error,
                &format!(
                    "configuration refused ({} problems above); the previous configuration keeps serving",
                    report.errors.len()
                ),
            );
            return false;
        };
        let ingresses = match &routing {
            Routing::Ingress(table) => table.ingresses.as_slice(),
            Routing::Gateway(_) => &[],
        };
        let metrics = match Metrics::define(ingresses) {
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
        let serving = match &routing {
            Routing::Ingress(table) => format!(
                "{} Ingresses, {} clusters{}",
                table.ingresses.len(),
                table.clusters.len(),
                excluded.as_ref().map_or(String::new(), |e| format!("; invalid Ingresses left out: {e}"))
            ),
            Routing::Gateway(table) => format!(
                "Gateway {}: {} HTTPRoutes attached, {} clusters",
                table.gateway,
                table.routes.len(),
                table.cluster_names.len()
            ),
        };
        log(
            LogLevel::Info,
            &format!(
                "serving {serving}; configured in {} ms ({} bytes, {} ms of them reading the JSON)",
                ms(started),
                bytes.len(),
                read.duration_since(started).map_or(0, |d| d.as_millis()),
            ),
        );
        self.set_tick_period(Duration::from_secs(1));
        self.shared = Some(Rc::new(Shared {
            header_names: match &routing {
                Routing::Ingress(table) => table.header_names(),
                Routing::Gateway(table) => table.header_names.clone(),
            },
            routing,
            metrics,
            routing_header: config.routing_header,
            debug_header: config.debug_header,
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
            matched: None,
            gateway_matched: None,
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
    /// For the debug header: what answered, as [`Table::matched`](crate::routing::Table::matched) numbers it.
    matched: Option<usize>,
    /// For the debug header on the Gateway API path: the core's decision in one line.
    gateway_matched: Option<String>,
}

impl Context for Filter {}

impl HttpContext for Filter {
    fn on_http_request_headers(&mut self, _headers: usize, _end_of_stream: bool) -> Action {
        let Some(shared) = self.shared.clone() else {
            self.local_reply(503, "filter not configured", &[], b"ingress-router is not configured\n");
            return Action::Pause;
        };
        let table = match &shared.routing {
            Routing::Ingress(table) => table,
            Routing::Gateway(gateway) => return self.gateway_request(&shared, gateway),
        };
        // Host-owned buffers: the only allocations of a request with the spec profile (the core
        // allocates none). The scheme and other headers only when the core says the table reads
        // them (the ingress-nginx profile: its redirects, the headers its canaries name).
        let host = self.get_http_request_header_bytes(":authority").unwrap_or_default();
        let path = self.get_http_request_header_bytes(":path").unwrap_or_default();
        let values: Vec<(&str, String)> = shared
            .header_names
            .iter()
            .filter_map(|name| Some((name.as_str(), self.get_http_request_header(name)?)))
            .collect();
        let headers: Vec<(&str, &str)> = values.iter().map(|(name, value)| (*name, value.as_str())).collect();
        let mut request = Request::from_bytes(&host, &path).with_headers(&headers);
        if table.reads_scheme() && self.https() {
            request = request.with_scheme(Scheme::Https);
        }
        let routed = table.route(&request, shared.draw());
        if routed.regex_budget_exhausted {
            regex_budget_exhausted(
                &shared.metrics,
                "regexes (use-regex paths, server aliases, canary patterns)",
                &host,
                &path,
            );
        }
        match routed.outcome {
            Outcome::Backend { cluster, ingress, via_default, answer, rewritten_path } => {
                // Replaces any client-supplied value: the client never picks the cluster.
                self.set_http_request_header_bytes(&shared.routing_header, Some(cluster.as_bytes()));
                if let Some(rewritten) = rewritten_path {
                    self.set_http_request_header(":path", Some(&rewritten));
                }
                self.clear_route_cache();
                let m = &shared.metrics;
                if via_default { &m.default_backend } else { &m.routed }.add();
                if let Some(counter) = ingress.and_then(|i| m.per_ingress.get(i)) {
                    counter.add();
                }
                if shared.debug_header {
                    self.matched = Some(answer);
                }
                Action::Continue
            }
            Outcome::Redirect { status, location } => {
                shared.metrics.redirected.add();
                self.local_reply(status, "redirect", &[("location", &location)], b"");
                Action::Pause
            }
            Outcome::NotFound => {
                shared.metrics.not_found.add();
                self.local_reply(404, "no rule or default backend", &[], NOT_FOUND_BODY);
                Action::Pause
            }
            Outcome::Rejected { status, reason } => {
                shared.metrics.rejected.add();
                self.local_reply(status, reason, &[], reason.as_bytes());
                Action::Pause
            }
        }
    }

    fn on_http_response_headers(&mut self, _headers: usize, _end_of_stream: bool) -> Action {
        if let Some(matched) = &self.gateway_matched {
            self.set_http_response_header(DEBUG_HEADER, Some(matched));
        }
        if let (Some(matched), Some(shared)) = (self.matched, self.shared.as_deref())
            && let Routing::Ingress(table) = &shared.routing
        {
            self.set_http_response_header(DEBUG_HEADER, Some(table.matched(matched)));
            if let Some(excluded) = &shared.excluded {
                self.set_http_response_header(EXCLUDED_HEADER, Some(excluded));
            }
        }
        Action::Continue
    }
}

impl Filter {
    /// The Gateway API path. Reads `:authority`, `:path`, `:method`, the scheme (as the Ingress
    /// path does) and the headers the routes match on; the core decides, and its changes to the
    /// request (URLRewrite, RequestHeaderModifier) are applied as it lists them.
    fn gateway_request(&mut self, shared: &Shared, table: &GatewayTable) -> Action {
        // Host-owned buffers copied out: host, path, method, and the matched headers' values only
        // when a route matches on a header (then the whole map: a repeated header matches when any
        // of its values does, and a single-header read gives only the first).
        let text = |bytes: Option<Vec<u8>>| {
            String::from_utf8(bytes.unwrap_or_default())
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
        };
        let host = text(self.get_http_request_header_bytes(":authority"));
        let path = text(self.get_http_request_header_bytes(":path"));
        let method = text(self.get_http_request_header_bytes(":method"));
        let values: Vec<(String, String)> = if table.header_names.is_empty() {
            Vec::new()
        } else {
            self.get_http_request_headers_bytes()
                .into_iter()
                .filter(|(name, _)| table.header_names.binary_search(name).is_ok())
                .map(|(name, value)| (name, text(Some(value))))
                .collect()
        };
        let headers: Vec<(&str, &str)> = values.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let scheme = if self.https() { "https" } else { "http" };
        // The port is the Host header's (else 80 or 443 by scheme): the port the client addressed,
        // which a Service in front of Envoy maps to Envoy's own.
        let request = GatewayRequest::new(&host, &path).with_method(&method).with_scheme(scheme).with_headers(&headers);
        let m = &shared.metrics;
        let routed = table.route(&request, shared.draw());
        if routed.regex_budget_exhausted {
            regex_budget_exhausted(m, "RegularExpression matches", host.as_bytes(), path.as_bytes());
        }
        match routed.outcome {
            GatewayOutcome::Forward { cluster, modifications } => {
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
                m.routed.add();
                if shared.debug_header {
                    self.gateway_matched = Some(table.matched(&request));
                }
                Action::Continue
            }
            GatewayOutcome::Redirect { status, location } => {
                m.redirected.add();
                self.local_reply(status, "redirect", &[("location", &location)], b"");
                Action::Pause
            }
            GatewayOutcome::Local { status, reason } => {
                if status == 404 { &m.not_found } else { &m.rejected }.add();
                let body = format!("{status} {reason}\n");
                self.local_reply(status, reason, &[], body.as_bytes());
                Action::Pause
            }
        }
    }

    fn clear_route_cache(&self) {
        crate::clear_route_cache(&self.clear_route_cache);
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

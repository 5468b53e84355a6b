//! The `ingress-router` command (the `cli` feature), `main` its entry point. The command-line
//! adapter: reads files, builds options, calls the library, prints.
//! It holds no routing logic of its own.
//!
//! Exit codes: 0 success, 1 some `test` failed or `validate` found an invalid object, 2 bad input
//! or usage, 3 internal error.

// Doc comments here are clap's help texts (`host[:port]`), not links.
#![allow(rustdoc::broken_intra_doc_links)]

mod check;
#[cfg(feature = "nginx")]
mod diff;
mod envoy_config;
mod gateway;
mod load;
mod mesh;
#[cfg(feature = "nginx")]
mod migrate;
mod show;
mod status;
mod validate;

use std::io::Write;
use std::path::PathBuf;

use crate::{CompileOptions, EscapedSlashes, ImplementationSpecific, Profile, RequestSpec};
use clap::{Args, Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  ingress-router route -f examples/shop/manifests https://shop.example.com/cart/items
  ingress-router explain -f examples/shop/manifests api.example.com /v2/orders
  ingress-router table -f examples/shop/manifests --ingress-class nginx
  ingress-router test -f examples/shop/manifests examples/shop/tests.yaml --coverage
  ingress-router route -f examples/gateway/manifests --gateway infra/public http://shop.example.com/cart --json
  ingress-router test -f examples/gateway/manifests examples/gateway/tests.yaml
  ingress-router validate -f examples/invalid
  ingress-router status -f examples/shop/manifests --publish-service ingress-nginx/ingress-nginx-controller
  kubectl get ingress,service,ingressclass -A -o yaml | ingress-router table -f -

Gateway API objects (gateway.networking.k8s.io) are read from the same files: `route`, `explain`,
`table` and `test` route through them with --gateway NAMESPACE/NAME, or when the input has a
Gateway and no Ingress.

Exit codes: 0 success, 1 a test failed or an object is invalid, 2 bad input or usage, 3 internal error.";

const ROUTE_EXAMPLES: &str = "\
Examples:
  ingress-router route -f examples/shop/manifests https://shop.example.com/cart/items?id=1
  ingress-router route -f examples/shop/manifests shop.example.com /cart/checkout --json
  ingress-router route -f ingress.yaml --normalize-path --merge-slashes http://example.com//public/../admin
  ingress-router route -f examples/gateway/manifests --gateway infra/public -X POST -H 'x-env: canary' \
      http://shop.example.com:8080/api/orders?v=2 --json

With Gateway API input (--gateway, or a Gateway and no Ingress), --json prints {status, via,
gateway, listener, route, rule, match, backend: {namespace, name, port} | null, split?: [{namespace,
name, port, weight, status}], redirect: {status, location} | null, upstream: {host, path, headers:
[[name, value], ...]} | null}; the URL's port picks the listener.";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  ingress-router explain -f examples/shop/manifests https://shop.example.com/cart/checkout
  ingress-router explain -f examples/shop/manifests tenant-a.shop.example.com /
  ingress-router explain -f manifests/ https://example.com/foo --json | jq .candidates
  ingress-router explain -f examples/gateway/manifests --gateway infra/public http://shop.example.com/cart --json";

const TABLE_EXAMPLES: &str = "\
Examples:
  ingress-router table -f examples/shop/manifests --ingress-class nginx
  ingress-router table -f manifests/ -f more.yaml --implementation-specific exact --json
  ingress-router table -f examples/gateway/manifests --gateway infra/public";

const COMPILE_EXAMPLES: &str = "\
The table file holds the spec profile's Ingress table with the options it was compiled with
(versioned, checksummed: the README's \"Precompiled tables\"). The ingress-nginx profile and Gateway
API routers are not written. A table file given to `route`, `explain` or `table` with -f is loaded,
not compiled; compile options are then refused (they were fixed when the table was written).

Examples:
  ingress-router compile -f examples/shop/manifests --ingress-class nginx -o shop.table
  ingress-router route -f shop.table https://shop.example.com/cart/items";

const TEST_EXAMPLES: &str = "\
Tests file (YAML or JSON):
  options:                          # optional; command-line flags win
    ingressClass: nginx
    implementationSpecific: prefix  # prefix | exact | string-prefix
    profile: spec                   # spec | ingress-nginx
    normalizePath: false            # proxy path normalisation before routing
    mergeSlashes: false
    escapedSlashes: KEEP_UNCHANGED  # UNESCAPE_AND_FORWARD | REJECT_REQUEST | UNESCAPE_AND_REDIRECT
  tests:
  - name: cart goes to cart-api
    request: {host: shop.example.com, path: /cart/items?id=1}   # or: {url: https://shop.example.com/cart}
    # request headers (ingress-nginx canaries): {url: ..., headers: {X-Canary: always}}
    expect:
      backend: cart-api:80          # service:port | resource:<apiGroup>/<Kind>/<name> | \"404\" | \"400\" (rejected)
                                    # ingress-nginx also: \"redirect 308 https://...\" | \"split(a:80 90, b:80 10)\"
      via: rule                     # optional: rule | defaultBackend | none | rejected
      matched: {ingress: shop/storefront, host: shop.example.com, path: /cart, pathType: Prefix}  # optional
      status: 200                   # optional: the HTTP status the proxy answers
      redirect: https://shop.example.com/new   # optional: the redirect's Location
      upstream: {path: /items, host: cart.internal}  # optional: what the backend receives

Gateway API tests: `options: {gateway: infra/public}` (or --gateway, or a Gateway and no Ingress in
the input) routes them through the Gateway API objects; `request.method` and `request.headers` are
matched, the URL's port picks the listener; `backend` is namespace/name:port (or name:port),
`split(...)`, `redirect <status> <location>` or the status.

Examples:
  ingress-router test -f examples/shop/manifests examples/shop/tests.yaml
  ingress-router test -f examples/shop/manifests examples/shop/tests.yaml --coverage
  ingress-router test -f examples/gateway/manifests examples/gateway/tests.yaml --coverage";

const VALIDATE_EXAMPLES: &str = "\
Prints, for each invalid object, the apiserver's answer as `kubectl apply` shows it, then every
error at its file:line:column; then the warnings and notes about the input, and a summary.
Ingresses and IngressClasses, and the Gateway API's GatewayClasses, Gateways, HTTPRoutes and
ReferenceGrants (their standard CRDs' schema and CEL rules, v1.6.1) are validated.
Exit code 1 when an object is invalid (with --strict: also on a warning).

Examples:
  ingress-router validate -f examples/invalid
  ingress-router validate -f examples/shop/manifests --strict
  ingress-router validate -f ingress.yaml --update <(kubectl get ingress shop -n shop -o yaml)
  kubectl get ingress,ingressclass -A -o yaml | ingress-router validate -f - --json | jq '.objects[] | select(.valid | not)'
  ingress-router validate -f gateway.yaml -f routes/";

const STATUS_EXAMPLES: &str = "\
Examples:
  ingress-router status -f examples/shop/manifests --publish-service ingress-nginx/ingress-nginx-controller
  ingress-router status -f examples/shop/manifests --publish-service ingress-nginx/ingress-nginx-controller --ingress-class nginx --requests
  ingress-router status -f examples/shop/manifests --service ingress-nginx/ingress-nginx-controller
  ingress-router status -f manifests/ --publish-service ingress-nginx/ingress-nginx-controller --json
  ingress-router status -f gateway.yaml -f routes/ --controller-name example.net/gateway-controller --requests";

/// Kubernetes Ingress routing: which backend gets a request, and why.
#[derive(Parser)]
#[command(name = "ingress-router", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Route one request and print the decision.
    #[command(after_help = ROUTE_EXAMPLES)]
    Route(RequestArgs),
    /// Route one request and print every step: host tier, each path with the reason, precedence.
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain(RequestArgs),
    /// Print the compiled routing table.
    #[command(after_help = TABLE_EXAMPLES)]
    Table(TableArgs),
    /// Compile the manifests once into a table file that `route`, `explain` and `table` (`-f
    /// table.bin`) and the npm package's route-only module load without compiling.
    #[command(after_help = COMPILE_EXAMPLES)]
    Compile(CompileArgs),
    /// Check routes against a tests file (like Envoy's router_check_tool).
    #[command(after_help = TEST_EXAMPLES)]
    Test(TestArgs),
    /// What the apiserver would reject, at its file:line:column, and the warnings about the input.
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(validate::ValidateArgs),
    /// The status a controller writes: Ingress addresses, Gateway API conditions; or a Service's status.
    #[command(after_help = STATUS_EXAMPLES)]
    Status(status::StatusArgs),
    /// A complete Envoy bootstrap for the manifests: the proxy-wasm filter, or native routes.
    #[command(after_help = envoy_config::EXAMPLES)]
    EnvoyConfig(Box<envoy_config::EnvoyConfigArgs>),
    /// `route` (`explain` with --explain) through the Gateway API objects, whatever else the input holds.
    #[command(after_help = gateway::EXAMPLES)]
    Gateway(gateway::GatewayArgs),
    /// The requests two profiles answer differently (ingress-nginx vs spec), probed from every path.
    #[cfg(feature = "nginx")]
    #[command(after_help = diff::EXAMPLES)]
    Diff(diff::DiffArgs),
    /// Write the Gateway API objects for ingress-nginx Ingresses, and prove they route the same.
    #[cfg(feature = "nginx")]
    #[command(after_help = migrate::EXAMPLES)]
    Migrate(migrate::MigrateArgs),
}

/// Flags every subcommand takes.
#[derive(Args)]
pub(crate) struct Common {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside, recursively); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Serve only this IngressClass (default: every Ingress takes part).
    #[arg(long, value_name = "NAME")]
    pub ingress_class: Option<String>,
    /// How ImplementationSpecific paths match: prefix, exact or string-prefix [default: prefix].
    #[arg(long, value_name = "MODE")]
    pub implementation_specific: Option<ImplementationSpecific>,
    /// Routing profile: spec, or ingress-nginx (as that controller routed) [default: spec].
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<Profile>,
    /// Proxy normalisation before routing, as Envoy's normalize_path: `\` to `/`, unreserved %XX decoded, characters a path may not hold escaped, `.` and `..` segments removed.
    #[arg(long)]
    pub normalize_path: bool,
    /// Proxy normalisation before routing: collapse runs of `/`.
    #[arg(long)]
    pub merge_slashes: bool,
    /// What the proxy does with %2F and %5C: KEEP_UNCHANGED, UNESCAPE_AND_FORWARD, REJECT_REQUEST, UNESCAPE_AND_REDIRECT.
    #[arg(long, value_name = "ACTION")]
    pub escaped_slashes: Option<EscapedSlashes>,
    /// Every compile option as JSON, in the names of tests files, the npm package and the Envoy
    /// filter (`{"ingressClass": "nginx", "normalizePath": true}`); replaces a tests file's
    /// `options`, and the flags above override it.
    #[arg(long, value_name = "JSON", value_parser = compile_options)]
    pub options: Option<CompileOptions>,
}

fn compile_options(json: &str) -> Result<CompileOptions, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[derive(Args)]
struct RequestArgs {
    #[command(flatten)]
    common: Common,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// A URL (`https://host/path?query`), or the Host header when PATH follows.
    #[arg(value_name = "URL|HOST")]
    target: String,
    /// The request path (with its query, if any), when the first argument is a host.
    #[arg(value_name = "PATH")]
    path: Option<String>,
    /// A request header `Name: value` (repeatable; the ingress-nginx profile's canaries and Gateway API header matches read them).
    #[arg(short = 'H', long = "header", value_name = "HEADER")]
    headers: Vec<String>,
    /// The request's method, GET by default (Gateway API method matches read it; Ingresses ignore it).
    #[arg(short = 'X', long, value_name = "METHOD")]
    method: Option<String>,
    /// The port the request arrives on, when it is not the URL's (or the Host header's): the
    /// Gateway API picks the listener by it (`--port 80 http://very.specific.com:1234/`).
    #[arg(long, value_name = "PORT")]
    port: Option<u16>,
    /// A gRPC call: the path /SERVICE/METHOD, method POST, `content-type: application/grpc` (the URL
    /// gives the host: `--grpc echo.v1.Echo/Echo http://grpc.example.com`).
    #[arg(long, value_name = "SERVICE/METHOD")]
    grpc: Option<String>,
    /// Route through the input's Gateway API objects, at this Gateway (NAMESPACE/NAME, or NAME).
    #[arg(long, value_name = "NS/NAME")]
    gateway: Option<String>,
}

#[derive(Args)]
struct CompileArgs {
    #[command(flatten)]
    common: Common,
    /// Where to write the table file.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: PathBuf,
}

#[derive(Args)]
struct TableArgs {
    #[command(flatten)]
    common: Common,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// The Gateway API table of this Gateway (NAMESPACE/NAME, or NAME): listeners, routes, rules.
    #[arg(long, value_name = "NS/NAME")]
    gateway: Option<String>,
}

#[derive(Args)]
struct TestArgs {
    #[command(flatten)]
    common: Common,
    /// The tests file (YAML or JSON); `-` reads stdin.
    #[arg(value_name = "TESTS")]
    tests: PathBuf,
    /// List the paths (Ingress, host, path, pathType) that no test chose.
    #[arg(long)]
    coverage: bool,
    /// Print the report as JSON (what the npm package's `runTests` returns).
    #[arg(long)]
    json: bool,
    /// Route the tests through the input's Gateway API objects, at this Gateway (over the file's `options.gateway`).
    #[arg(long, value_name = "NS/NAME")]
    gateway: Option<String>,
}

/// Bad input: printed as `error: <message>`, exit code 2.
pub(crate) struct Failure(pub(crate) String);

/// Runs the command line; returns the exit code.
pub fn main() -> i32 {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| String::from("unknown panic"));
        let place = info.location().map(|l| format!(" ({}:{})", l.file(), l.line())).unwrap_or_default();
        let _ = writeln!(std::io::stderr(), "internal error: {message}{place}; please report this");
        std::process::exit(3);
    }));
    let cli = Cli::parse();
    let json = cli.command.json();
    match run(cli) {
        // Input that could not be read makes the result at least "bad input", whatever the rest gave.
        Ok(code) if load::had_problems() => code.max(2),
        Ok(code) => code,
        Err(Failure(message)) => {
            let _ = writeln!(std::io::stderr(), "error: {message}");
            if json {
                print(&show::json(&load::json_failure(&message)));
            }
            2
        }
    }
}

impl Command {
    /// `--json` was asked for: stdout carries JSON whatever happens, errors included.
    fn json(&self) -> bool {
        match self {
            Command::Route(a) | Command::Explain(a) => a.json,
            Command::Table(a) => a.json,
            Command::Compile(_) => false,
            Command::Validate(a) => a.json(),
            Command::Status(a) => a.json(),
            Command::Test(a) => a.json,
            Command::EnvoyConfig(_) => false,
            Command::Gateway(a) => a.json,
            #[cfg(feature = "nginx")]
            Command::Diff(a) => a.json,
            #[cfg(feature = "nginx")]
            Command::Migrate(a) => a.json,
        }
    }
}

fn run(cli: Cli) -> Result<i32, Failure> {
    match cli.command {
        Command::Route(args) => request_command(&args, false),
        Command::Explain(args) => request_command(&args, true),
        Command::Table(args) => {
            let router = match load::table_file(&args.common, args.gateway.as_deref())? {
                Some(router) => router,
                None => {
                    let loaded = load::load(&args.common.files)?;
                    load::router(&loaded, &args.common, &CompileOptions::default(), args.gateway.as_deref())?
                }
            };
            print(&if args.json { show::json(&router.table()) } else { show::table(&router) });
            Ok(0)
        }
        Command::Compile(args) => {
            let loaded = load::load(&args.common.files)?;
            let router = load::router(&loaded, &args.common, &CompileOptions::default(), None)?;
            let bytes = router.to_table_file().map_err(|e| Failure(format!("{}: {e}", loaded.names())))?;
            std::fs::write(&args.output, &bytes).map_err(|e| Failure(format!("{}: {e}", args.output.display())))?;
            let table = router.table();
            load::stderr(&format_args!(
                "{}: {} bytes: {} paths of {} Ingresses ({} left out)",
                args.output.display(),
                bytes.len(),
                table.hosts.iter().map(|h| h.paths.len()).sum::<usize>(),
                table.ingresses.len(),
                table.excluded.len()
            ));
            Ok(0)
        }
        Command::Test(args) => check::run(&args.common, &args.tests, args.coverage, args.json, args.gateway.as_deref()),
        Command::Validate(args) => validate::run(&args),
        Command::Status(args) => status::run(&args),
        Command::EnvoyConfig(args) => envoy_config::run(&args),
        Command::Gateway(args) => gateway::run(&args),
        #[cfg(feature = "nginx")]
        Command::Diff(args) => diff::run(&args),
        #[cfg(feature = "nginx")]
        Command::Migrate(args) => migrate::run(&args),
    }
}

/// `-H` values, `Name: value` each (a name is a token: no space, no empty name).
fn parse_headers(headers: &[String]) -> Result<std::collections::BTreeMap<String, String>, Failure> {
    let mut parsed = std::collections::BTreeMap::new();
    for h in headers {
        let bad = |why: &str| Failure(format!("bad header {h:?}: {why}; expected `Name: value`"));
        let (name, value) = h.split_once(':').ok_or_else(|| bad("no `:`"))?;
        let name = name.trim();
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace() || b.is_ascii_control()) {
            return Err(bad("the name is empty or holds a space"));
        }
        parsed.insert(name.into(), value.trim().into());
    }
    Ok(parsed)
}

fn request_command(args: &RequestArgs, explain: bool) -> Result<i32, Failure> {
    let mut spec = match &args.path {
        Some(path) => RequestSpec::parts(&args.target, path),
        None => RequestSpec::url(&args.target),
    };
    spec.headers = parse_headers(&args.headers)?;
    spec.method = args.method.clone();
    spec.grpc = args.grpc.clone();
    spec.port = args.port;
    spec.with(|_| ()).map_err(|e| Failure(e.to_string()))?;
    let router = match load::table_file(&args.common, args.gateway.as_deref())? {
        Some(router) => router,
        None => {
            let loaded = load::load(&args.common.files)?;
            load::router(&loaded, &args.common, &CompileOptions::default(), args.gateway.as_deref())?
        }
    };
    print(&request(&router, &spec, explain, args.json)?);
    Ok(0)
}

/// One request: the decision or the explanation, as text or JSON.
pub(crate) fn request(
    router: &crate::Router,
    spec: &RequestSpec,
    explain: bool,
    json: bool,
) -> Result<String, Failure> {
    spec.with(|request| match (explain, json) {
        (false, true) => show::json(&router.route(request).view(request)),
        (false, false) => show::decision(&router.route(request).view(request)),
        (true, true) => show::json(&router.explain(request)),
        (true, false) => show::explanation(&router.explain(request)),
    })
    .map_err(|e| Failure(e.to_string()))
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

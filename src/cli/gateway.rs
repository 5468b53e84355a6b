//! The Gateway API objects of the input (Gateways, HTTPRoutes, ReferenceGrants, with their
//! Services and Namespaces) through `route`, `explain`, `table` and `test`: which of the two
//! routers a command uses, the Gateway API router, and its text. The routing, the views and the
//! tests file are the core's (`crate::gateway`, `tests_file`); this adapter reads files,
//! picks the Gateway and prints. The `gateway` subcommand is `route`/`explain` forced to this path.

use std::path::PathBuf;

use crate::{CompileOptions, RequestSpec};
use clap::Args;
use serde_json::Value;

use super::Failure;
use super::load::{self, Loaded};

pub const EXAMPLES: &str = "\
The same as `route` and `explain` (with --explain) with the Gateway API objects of the input.

Examples:
  ingress-router gateway -f examples/gateway/manifests --gateway infra/public http://shop.example.com/cart?id=1
  ingress-router gateway -f manifests/ --gateway infra/public http://api.example.com/v2 --method POST --json
  ingress-router gateway -f manifests/ http://api.example.com/v2 -H 'x-env: canary' --explain";

/// `gateway`: an alias of `route` (`explain` with `--explain`) that always routes through the
/// Gateway API objects.
#[derive(Args)]
pub struct GatewayArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside, recursively); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The request: scheme://host[:port]/path?query.
    pub url: String,
    /// The Gateway the request arrives at: NAMESPACE/NAME, or NAME (needed when the input has several).
    #[arg(long, value_name = "NS/NAME")]
    pub gateway: Option<String>,
    /// The request's method.
    #[arg(short = 'X', long, value_name = "METHOD", default_value = "GET")]
    pub method: String,
    /// A request header, `Name: value` (repeatable).
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Why every other listener, route and match lost, not only the decision.
    #[arg(long)]
    pub explain: bool,
    /// JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &GatewayArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    let mut spec = RequestSpec::url(args.url.as_str());
    spec.method = Some(args.method.clone());
    spec.headers = super::parse_headers(&args.headers)?;
    spec.with(|_| ()).map_err(|e| Failure(e.to_string()))?;
    // The Gateway API objects, even beside Ingresses: the only Gateway when none is named.
    let named = match &args.gateway {
        Some(gateway) => gateway.clone(),
        None => only_gateway(&loaded)?,
    };
    let router = load::compile(&loaded, &CompileOptions::default().with_gateway(Some(named)))?;
    super::print(&super::request(&router, &spec, args.explain, args.json)?);
    Ok(0)
}

/// `namespace/name` of the input's one Gateway; an error when it has none or several.
fn only_gateway(loaded: &Loaded) -> Result<String, Failure> {
    let key = |v: &Value| {
        let meta = v.get("metadata");
        let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or_default();
        let namespace = meta.and_then(|m| m.get("namespace")).and_then(Value::as_str).unwrap_or("default");
        format!("{namespace}/{name}")
    };
    let gateways: Vec<String> = loaded
        .gateway_api
        .iter()
        .map(|g| &g.value)
        .filter(|v| v.get("kind").and_then(Value::as_str) == Some("Gateway"))
        .map(key)
        .collect();
    match gateways.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Failure(format!(
            "{}: no Gateway in the input: give the Gateway API objects (gateway.networking.k8s.io) with -f",
            loaded.names()
        ))),
        several => Err(Failure(format!(
            "the input has several Gateways ({}): choose one with --gateway NAMESPACE/NAME",
            several.join(", ")
        ))),
    }
}

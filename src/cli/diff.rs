//! `diff`: the requests two profiles answer differently. Printing only; the probing and routing
//! are [`crate::diff`].

use std::path::PathBuf;

use crate::diff::DiffReport;
use crate::migrate::MigrationReport;
use crate::{CompileOptions, Profile};
use clap::Args;
use serde::Serialize;
use serde_json::Value;

use super::{Failure, load, print};

pub const EXAMPLES: &str = "\
Probe requests are derived from every path (at, under, beside, case, trailing slash, regex
examples) and routed by both profiles; exit code 1 when any answer differs.

With --to gateway-api (the default when the input holds HTTPRoutes or GRPCRoutes) the Ingresses are compared
with the Gateway API objects of the same files: probes come from both sides (paths and their
neighbours, regex examples, trailing slashes, case variants, hosts under wildcards, canary headers
and cookies, header/query/method matches), and the differences are grouped by cause (regex prefix
and case, use-regex across a host, trailing-slash and HTTPS redirects, wildcard depth, canaries,
dropped rewrites).

Examples:
  ingress-router diff -f manifests/
  ingress-router diff --from ingress-nginx --to gateway-api -f ingresses/ -f routes/ --gateway infra/public
  ingress-router diff -f manifests/ --from ingress-nginx --to spec --json
  ingress-router diff -f manifests/ --tests pinned.yaml   # then: ingress-router test -f manifests/ pinned.yaml";

#[derive(Args)]
pub struct DiffArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Serve only this IngressClass (default: every Ingress takes part).
    #[arg(long, value_name = "NAME")]
    ingress_class: Option<String>,
    /// The profile routing today.
    #[arg(long, value_name = "PROFILE", default_value = "ingress-nginx")]
    from: Profile,
    /// What to migrate to: a profile (spec, ingress-nginx) or `gateway-api` (the Gateway API objects
    /// of the input) [default: gateway-api when the input holds HTTPRoutes or GRPCRoutes, else spec].
    #[arg(long, value_name = "TARGET", value_parser = target)]
    to: Option<Target>,
    /// The Gateway the requests arrive at with --to gateway-api: NAMESPACE/NAME, or NAME.
    #[arg(long, value_name = "NS/NAME")]
    gateway: Option<String>,
    /// Write a tests file pinning the --from profile's answer to every probe request (with --to
    /// gateway-api: the Gateway API objects' answer to every probe both sides answer alike).
    #[arg(long, value_name = "FILE")]
    tests: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `--to`: a profile, or the Gateway API objects.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    Profile(Profile),
    GatewayApi,
}

fn target(value: &str) -> Result<Target, String> {
    match value {
        "gateway-api" => Ok(Target::GatewayApi),
        other => other.parse().map(Target::Profile).map_err(|e: crate::UnknownValue| format!("{e}; or gateway-api")),
    }
}

/// Exit 1 when some request is answered differently.
pub fn run(args: &DiffArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    loaded.require_ingress("nothing to compare")?;
    let options = CompileOptions { ingress_class: args.ingress_class.clone(), ..CompileOptions::default() };
    let has_routes = loaded
        .gateway_api
        .iter()
        .any(|g| matches!(g.value.get("kind").and_then(Value::as_str), Some("HTTPRoute" | "GRPCRoute")));
    let to = match args.to {
        Some(Target::Profile(profile)) => profile,
        Some(Target::GatewayApi) => return migration(args, &loaded, &options),
        None if has_routes => return migration(args, &loaded, &options),
        None => Profile::Spec,
    };
    let report = crate::diff::diff_objects(&loaded.objects(), &options, args.from, to);
    finish(args, (&report.pinned, || report.tests_file()), (&report, || text(&report)), report.differences())
}

/// Writes `--tests` (YAML with a comment on top, or JSON for a `.json` name), prints the report
/// (JSON, or the text), and says the exit code: 1 when some request is answered differently.
fn finish<P: Serialize, R: Serialize>(
    args: &DiffArgs,
    (pinned, tests_yaml): (&P, impl FnOnce() -> String),
    (report, report_text): (&R, impl FnOnce() -> String),
    differences: usize,
) -> Result<i32, Failure> {
    if let Some(path) = &args.tests {
        let json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let text = if json { super::show::json(pinned) } else { tests_yaml() };
        std::fs::write(path, text)
            .map_err(|e| Failure(format!("cannot write the tests file {}: {e}", path.display())))?;
    }
    let text = if args.json {
        serde_json::to_string_pretty(report).map_err(|e| Failure(e.to_string()))? + "\n"
    } else {
        report_text()
    };
    print(&text);
    Ok(if differences > 0 { 1 } else { 0 })
}

fn text(report: &DiffReport) -> String {
    let (from, to) = (report.from.as_str(), report.to.as_str());
    let mut out = String::new();
    let mut host = "";
    for group in &report.groups {
        if group.host != host {
            out.push_str(&format!("{}\n", group.host));
            host = &group.host;
        }
        out.push_str(&format!("  {}\n", group.rule));
        for d in &group.differences {
            out.push_str(&format!("    {} ({})\n", d.probe.url(), d.probe.kind));
            out.push_str(&format!("      {from}: {}  ({})\n", d.from.answer, d.from.reason));
            out.push_str(&format!("      {to}: {}  ({})\n", d.to.answer, d.to.reason));
        }
    }
    out.push_str(&report.summary());
    out.push('\n');
    out
}

/// `--to gateway-api`: the Ingresses against the Gateway API objects of the same files.
fn migration(args: &DiffArgs, loaded: &load::Loaded, options: &CompileOptions) -> Result<i32, Failure> {
    if !loaded
        .gateway_api
        .iter()
        .any(|g| matches!(g.value.get("kind").and_then(Value::as_str), Some("HTTPRoute" | "GRPCRoute")))
    {
        let mut kinds: Vec<&str> = loaded
            .gateway_api
            .iter()
            .filter_map(|g| g.value.get("kind").and_then(Value::as_str))
            .filter(|k| k.ends_with("Route"))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        let found = if kinds.is_empty() {
            String::new()
        } else {
            format!(" (found: {}, which are not compared)", kinds.join(", "))
        };
        return Err(Failure(format!(
            "--to gateway-api: no HTTPRoute or GRPCRoute in the input{found}; give the Gateway API objects with -f \
             beside the Ingresses"
        )));
    }
    let options = CompileOptions { gateway: args.gateway.clone(), ..options.clone() };
    let report = crate::migrate(&loaded.input(), &options, args.from);
    if let Some(why) = &report.no_gateway {
        return Err(Failure(format!("--to gateway-api: {why} (--gateway NAMESPACE/NAME)")));
    }
    finish(args, (&report.pinned, || report.tests_file()), (&report, || migration_text(&report)), report.differences())
}

pub(crate) fn migration_text(report: &MigrationReport) -> String {
    let from = report.from.as_str();
    let mut out = String::new();
    for line in report.warnings.iter().chain(&report.left_out).chain(&report.not_compared) {
        out.push_str(&format!("note: {line}\n"));
    }
    for group in &report.causes {
        out.push_str(&format!("{} [{}]\n  fix: {}\n", group.title, group.cause.as_str(), group.advice));
        for d in &group.differences {
            let headers: Vec<String> = d.probe.headers.iter().map(|(n, v)| format!(" -H '{n}: {v}'")).collect();
            out.push_str(&format!(
                "  {} {}{}  ({}, from {})\n",
                d.probe.method,
                d.probe.url,
                headers.concat(),
                d.probe.kind,
                d.probe.from
            ));
            let rule = |r: &Option<String>| r.as_deref().map(|r| format!("{r}; ")).unwrap_or_default();
            out.push_str(&format!(
                "    {from}: {}  ({}{})\n",
                d.ingress.summary(),
                rule(&d.ingress.rule),
                d.ingress.reason
            ));
            out.push_str(&format!(
                "    gateway-api: {}  ({}{})\n",
                d.gateway.summary(),
                rule(&d.gateway.rule),
                d.gateway.reason
            ));
        }
    }
    out.push_str(&report.summary());
    out.push('\n');
    out
}

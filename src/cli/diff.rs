//! `diff`: the requests two profiles answer differently. Printing only; the probing and routing
//! are [`ingress_router::diff`].

use std::path::PathBuf;

use clap::Args;
use ingress_router::diff::DiffReport;
use ingress_router::{CompileOptions, Profile};

use super::{Failure, load, print};

pub const EXAMPLES: &str = "\
Probe requests are derived from every path (at, under, beside, case, trailing slash, regex
examples) and routed by both profiles; exit code 1 when any answer differs.

Examples:
  ingress-router diff -f manifests/
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
    /// The profile to migrate to.
    #[arg(long, value_name = "PROFILE", default_value = "spec")]
    to: Profile,
    /// Write a tests file pinning the --from profile's answer to every probe request.
    #[arg(long, value_name = "FILE")]
    tests: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Exit 1 when some request is answered differently.
pub fn run(args: &DiffArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    loaded.require_ingress("nothing to compare")?;
    let mut options = CompileOptions::default();
    options.ingress_class = args.ingress_class.clone();
    let report = ingress_router::diff(&loaded.objects(), &options, args.from, args.to);
    if let Some(path) = &args.tests {
        // The same file either way: YAML with a comment on top, or JSON for a `.json` name.
        let json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let text = if json { super::show::json(&report.pinned) } else { report.tests_file() };
        std::fs::write(path, text)
            .map_err(|e| Failure(format!("cannot write the tests file {}: {e}", path.display())))?;
    }
    let text = if args.json {
        serde_json::to_string_pretty(&report).map_err(|e| Failure(e.to_string()))? + "\n"
    } else {
        text(&report)
    };
    print(&text);
    Ok(if report.differences() > 0 { 1 } else { 0 })
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

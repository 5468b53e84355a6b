//! `diff` (the requests two profiles answer differently), and `route`, `explain`, `table` and
//! `test` with `--profile ingress-nginx`: printing only; the probing and routing are in `ingress_router::nginx`.

use std::path::PathBuf;

use clap::Args;
use ingress_router::CompileOptions;
use ingress_router::nginx::{self, Request, diff::Side};

use super::load::{self, RequestSpec};
use super::{Failure, print};

#[derive(Args)]
pub struct DiffArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Serve only this IngressClass (default: every Ingress takes part).
    #[arg(long, value_name = "NAME")]
    ingress_class: Option<String>,
    /// The profile routing today.
    #[arg(long, value_name = "PROFILE", default_value = "ingress-nginx", value_parser = side)]
    from: Side,
    /// The profile to migrate to.
    #[arg(long, value_name = "PROFILE", default_value = "spec", value_parser = side)]
    to: Side,
    /// Write a tests file pinning the --from profile's answer to every probe request.
    #[arg(long, value_name = "FILE")]
    tests: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn side(s: &str) -> Result<Side, String> {
    Side::parse(s).ok_or_else(|| format!("unknown profile {s:?} (expected spec or ingress-nginx)"))
}

/// Exit 1 when some request is answered differently.
pub fn run(args: &DiffArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    loaded.require_ingress("nothing to compare")?;
    let options = CompileOptions { ingress_class: args.ingress_class.clone(), ..CompileOptions::default() };
    let report = nginx::diff::diff(&loaded.objects(), &options, args.from, args.to);
    if let Some(path) = &args.tests {
        std::fs::write(path, report.tests_file())
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

fn text(report: &nginx::diff::Report) -> String {
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

/// `route` / `explain` with `--profile ingress-nginx`.
pub fn route_nginx(
    common: &super::Common,
    target: &str,
    path: Option<&str>,
    headers: &[String],
    explain: bool,
) -> Result<i32, Failure> {
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|h| {
            h.split_once(':')
                .map(|(n, v)| (n.trim(), v.trim()))
                .ok_or_else(|| Failure(format!("bad header {h:?}: write it as 'Name: value'")))
        })
        .collect::<Result<_, _>>()?;
    let loaded = load::load(&common.files)?;
    loaded.require_ingress("nothing to route")?;
    let options = nginx::Options { ingress_class: common.ingress_class.clone(), default_backend: None };
    let (router, issues) = nginx::compile(&loaded.objects(), &options);
    for issue in &issues {
        load::stderr(&format_args!("note[ingress-nginx]: {issue}"));
    }
    let url = match path {
        Some(p) => format!("http://{target}{p}"),
        None => target.to_string(),
    };
    let request = Request::from_url(&url).map_err(|e| Failure(format!("{url}: {e}")))?;
    let d = router.route(&request.with_headers(&headers));
    let mut out = format!("answer:    {}\n", d.answer);
    if let Some(p) = &d.upstream_path {
        out.push_str(&format!("upstream:  {p}\n"));
    }
    if explain {
        for step in d.steps() {
            out.push_str(&format!("  - {step}\n"));
        }
    } else {
        out.push_str(&format!("rule:      {}\n", d.rule()));
    }
    print(&out);
    Ok(0)
}

/// One test of a tests file: name, URL (when given as one), the request, the expected answer.
pub type Case<'a> = (&'a str, Option<&'a str>, &'a RequestSpec, &'a str);

/// `test` with `--profile ingress-nginx` (or `profile: ingress-nginx` in the file): compares each
/// answer label (`svc:80`, `404`, `redirect 301 /x/`, `split(...)`) with `expect.backend`.
pub fn run_tests(common: &super::Common, options: &CompileOptions, cases: &[Case<'_>]) -> Result<i32, Failure> {
    let loaded = load::load(&common.files)?;
    loaded.require_ingress("nothing to route")?;
    let nginx_options = nginx::Options { ingress_class: options.ingress_class.clone(), default_backend: None };
    let (router, _) = nginx::compile(&loaded.objects(), &nginx_options);
    let (mut passed, mut failed) = (0, 0);
    let mut out = String::new();
    for (name, url, spec, expected) in cases {
        let headers = spec.header_refs();
        let request = match url {
            Some(url) => Request::from_url(url).map_err(|e| Failure(format!("{name}: {url}: {e}")))?,
            None => Request::new(&spec.host, &spec.path),
        };
        let d = router.route(&request.with_headers(&headers));
        let actual = d.answer.to_string();
        if actual == *expected {
            passed += 1;
            out.push_str(&format!("PASS {name}\n"));
        } else {
            failed += 1;
            out.push_str(&format!(
                "FAIL {name}\n  expected: {expected}\n  actual:   {actual}\n  rule:     {}\n",
                d.rule()
            ));
        }
    }
    out.push_str(&format!("{passed} passed, {failed} failed\n"));
    print(&out);
    Ok(if failed == 0 { 0 } else { 1 })
}

/// `table` with `--profile ingress-nginx`: the servers and locations as nginx.conf had them.
pub fn table_nginx(common: &super::Common) -> Result<i32, Failure> {
    let loaded = load::load(&common.files)?;
    loaded.require_ingress("nothing to route")?;
    let options = nginx::Options { ingress_class: common.ingress_class.clone(), default_backend: None };
    let (router, issues) = nginx::compile(&loaded.objects(), &options);
    for issue in &issues {
        load::stderr(&format_args!("note[ingress-nginx]: {issue}"));
    }
    print(&router.describe());
    Ok(0)
}

//! `migrate`: the Gateway API objects for an ingress-nginx estate, proven. Printing and files
//! only; the writing and the proof are [`crate::migrate::convert`].

use std::path::PathBuf;

use crate::CompileOptions;
use crate::migrate::{Conversion, DEFAULT_GATEWAY_CLASS, Outcome};
use clap::Args;

use super::{Failure, load, print};

pub const EXAMPLES: &str = "\
Writes a Gateway (unless --gateway names an existing one), HTTPRoutes (GRPCRoutes for
backend-protocol GRPC) and ReferenceGrants on stdout, or one file per namespace under -o; the report
(per Ingress and annotation: translated, partly, not expressible, left out) goes to stderr. Then the
Ingresses (as ingress-nginx routes them) and what was written are compared on the probe requests
`diff --to gateway-api` uses: exit 0 when every probe routes the same, 1 when some differ (each
listed with its cause and the report lines that explain it), 2 on input errors.

Examples:
  ingress-router migrate -f ingresses/
  ingress-router migrate -f ingresses/ --gateway-class eg -o gateway-api/
  ingress-router migrate -f ingresses/ -f gateway.yaml --gateway infra/public --json";

#[derive(Args)]
pub struct MigrateArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Migrate only this IngressClass (default: every Ingress ingress-nginx would serve).
    #[arg(long, value_name = "NAME")]
    ingress_class: Option<String>,
    /// The gatewayClassName of the Gateway written.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_GATEWAY_CLASS)]
    gateway_class: String,
    /// ingress-nginx's default certificate (its --default-ssl-certificate), NAMESPACE/NAME: the
    /// Gateway gets an HTTPS listener for the hosts without tls, as ingress-nginx served them.
    #[arg(long, value_name = "NS/NAME")]
    default_certificate: Option<String>,
    /// Attach the routes to this existing Gateway (NAMESPACE/NAME; give it with -f for the proof)
    /// instead of writing one.
    #[arg(long, value_name = "NS/NAME")]
    gateway: Option<String>,
    /// Write one file per namespace (NAMESPACE.yaml) into this folder instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: Option<PathBuf>,
    /// Print JSON: the objects, the report and the proof.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &MigrateArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    loaded.require_ingress("nothing to migrate")?;
    if let Some(gateway) = &args.gateway {
        let (namespace, name) = gateway.split_once('/').unwrap_or(("default", gateway));
        let found = loaded.gateway_api.iter().any(|g| {
            g.value["kind"] == "Gateway"
                && g.value["metadata"]["name"] == name
                && g.value["metadata"]["namespace"].as_str().unwrap_or("default") == namespace
        });
        if !found {
            return Err(Failure(format!(
                "--gateway {gateway}: no such Gateway in the input; give its manifest with -f (the proof routes \
                 through it), or leave --gateway out to write one"
            )));
        }
    }
    let options = CompileOptions {
        ingress_class: args.ingress_class.clone(),
        gateway: args.gateway.clone(),
        ..CompileOptions::default()
    };
    let migrate_options = crate::migrate::MigrateOptions {
        gateway_class: args.gateway_class.clone(),
        default_certificate: args.default_certificate.clone(),
    };
    let conversion = crate::migrate::convert(&loaded.input(), &options, &migrate_options);
    if let Some(why) = &conversion.proof.no_gateway {
        return Err(Failure(format!("the objects written cannot be proven: {why}")));
    }
    if args.json {
        print(&super::show::json(&conversion));
    } else if let Some(dir) = &args.output {
        write_files(dir, &conversion)?;
    } else {
        print(&conversion.translation.yaml());
    }
    if !args.json {
        eprint!("{}", report(&conversion));
    }
    Ok(if conversion.proof.differences() > 0 { 1 } else { 0 })
}

/// One YAML file per namespace of the objects written.
fn write_files(dir: &std::path::Path, conversion: &Conversion) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| Failure(format!("cannot create {}: {e}", dir.display())))?;
    let mut by_namespace: std::collections::BTreeMap<String, Vec<serde_json::Value>> = Default::default();
    for object in &conversion.translation.objects {
        let namespace = object["metadata"]["namespace"].as_str().unwrap_or("default").to_string();
        by_namespace.entry(namespace).or_default().push(object.clone());
    }
    for (namespace, objects) in by_namespace {
        let translation = crate::migrate::Translation { objects, ..crate::migrate::Translation::default() };
        let path = dir.join(format!("{namespace}.yaml"));
        std::fs::write(&path, translation.yaml())
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// The report for stderr: per Ingress and annotation, then the proof.
fn report(conversion: &Conversion) -> String {
    let t = &conversion.translation;
    let mut out = String::new();
    let mut ingress = None;
    for note in &t.notes {
        if ingress != Some(&note.ingress) {
            let name = if note.ingress.is_empty() {
                format!("Gateway {}", t.gateway)
            } else {
                format!("Ingress {}", note.ingress)
            };
            out.push_str(&format!("{name}\n"));
            ingress = Some(&note.ingress);
        }
        out.push_str(&format!("  {} [{}]: {}\n", note.what, note.outcome.as_str(), note.detail));
    }
    let proof = &conversion.proof;
    for line in proof.warnings.iter().chain(&proof.not_compared) {
        out.push_str(&format!("note: {line}\n"));
    }
    let mut explanations = conversion.explanations().into_iter();
    for group in &proof.causes {
        out.push_str(&format!("differs: {} [{}]\n", group.title, group.cause.as_str()));
        for (d, explained) in explanations.by_ref().take(group.differences.len()) {
            let headers: Vec<String> = d.probe.headers.iter().map(|(n, v)| format!(" -H '{n}: {v}'")).collect();
            out.push_str(&format!("  {} {}{}\n", d.probe.method, d.probe.url, headers.concat()));
            out.push_str(&format!(
                "    ingress-nginx: {}\n    gateway-api: {}\n",
                d.ingress.summary(),
                d.gateway.summary()
            ));
            if explained.is_empty() {
                out.push_str("    not explained by the report: please report this translation\n");
            }
            for note in explained {
                let who = if note.ingress.is_empty() { String::from("Gateway") } else { note.ingress.clone() };
                out.push_str(&format!("    explained: {who} {} [{}]\n", note.what, note.outcome.as_str()));
            }
        }
    }
    let counted = |o: Outcome| t.notes.iter().filter(|n| n.outcome == o).count();
    out.push_str(&format!(
        "{} objects written; {} translated, {} partly, {} not expressible, {} left out; {}\n",
        t.objects.len(),
        counted(Outcome::Translated),
        counted(Outcome::Partly),
        counted(Outcome::NotExpressible),
        counted(Outcome::LeftOut),
        proof.summary()
    ));
    out
}

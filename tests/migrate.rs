//! `diff --to gateway-api`: ingress-nginx Ingresses against the HTTPRoutes replacing them, on the
//! pairs in `tests/cases/migration/` (each a classic migration mistake, with the causes it must be
//! found under) and the careful translation in `examples/migration/` (no difference).

use std::path::Path;
use std::process::Command;

use ingress_router::migrate::MigrationReport;
use ingress_router::{CompileOptions, Profile, input};

fn report(dir: &Path) -> MigrationReport {
    let mut all = input::Input::default();
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "yaml")) {
        let text = std::fs::read_to_string(file).unwrap();
        all.extend(input::parse(&file.display().to_string(), &text).unwrap());
    }
    ingress_router::migrate(&all, &CompileOptions::default(), Profile::IngressNginx)
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_careful_translation_changes_no_request() {
    let r = report(&root().join("examples/migration"));
    assert!(r.probes >= 10, "probes from both sides: {}", r.probes);
    assert_eq!(r.differences(), 0, "{}", serde_json::to_string_pretty(&r).unwrap());
    assert_eq!(r.gateway.as_deref(), Some("infra/public"));
}

#[test]
fn each_classic_mistake_is_found_and_named() {
    let cases = root().join("tests/cases/migration");
    let mut seen = 0;
    for dir in std::fs::read_dir(&cases).unwrap().map(|e| e.unwrap().path()) {
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected-causes")).unwrap()).unwrap();
        let r = report(&dir);
        let found: Vec<&str> = r.causes.iter().map(|c| c.cause.as_str()).collect();
        for cause in expected["causes"].as_array().unwrap() {
            assert!(found.contains(&cause.as_str().unwrap()), "{}: {cause} not among {found:?}", dir.display());
        }
        for group in &r.causes {
            assert!(!group.title.is_empty() && !group.advice.is_empty());
            for d in &group.differences {
                // Each difference names the rule on the side that had one, and the answers differ.
                assert_ne!(d.ingress.summary(), d.gateway.summary(), "{}", dir.display());
                if d.ingress.status == 200 {
                    assert!(d.ingress.rule.is_some() || d.ingress.reason.contains("default"), "{d:?}");
                }
                if d.gateway.status == 200 {
                    assert!(d.gateway.rule.is_some(), "{d:?}");
                }
            }
        }
        seen += 1;
    }
    assert!(seen >= 7, "every mistake case ran: {seen}");
}

#[test]
fn specific_answers_on_both_sides() {
    let r = report(&root().join("tests/cases/migration/regex-case-and-prefix"));
    let find = |url: &str| r.causes.iter().flat_map(|c| &c.differences).find(|d| d.probe.url == url);
    // `/[A-Z]{3}` in ingress-nginx is `~* ^/[A-Z]{3}`: the lower-case `/aaa` matches there, not in Envoy.
    let d = find("http://regex.example.com/aaa").expect("the case variant differs");
    assert_eq!(d.ingress.backend.as_deref(), Some("web/httpbin:8000"));
    assert_eq!(d.gateway.status, 404);
    let d = find("http://regex.example.com/AAA/x").expect("the prefix differs");
    assert_eq!(d.ingress.status, 200);
    assert_eq!(d.gateway.status, 404);

    let r = report(&root().join("tests/cases/migration/rewrite-capture"));
    let d =
        r.causes.iter().flat_map(|c| &c.differences).find(|d| d.probe.url == "http://rewrite.example.com/something/x");
    let d = d.expect("the dropped rewrite differs");
    assert_eq!(d.ingress.upstream_path.as_deref(), Some("/x"));
    assert_eq!(d.gateway.upstream_path.as_deref(), Some("/something/x"));

    let r = report(&root().join("tests/cases/migration/canary-dropped"));
    let d = r.causes.iter().flat_map(|c| &c.differences).next().expect("the canary differs");
    assert_eq!(d.probe.headers, [("X-Canary".to_string(), "always".to_string())]);
    assert_eq!(d.ingress.backend.as_deref(), Some("web/app-next:80"));
    assert_eq!(d.gateway.backend.as_deref(), Some("web/app:80"));
}

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router")).args(args).current_dir(root()).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_cli_exits_1_on_a_difference_and_names_the_cause() {
    let (code, out) = cli(&["diff", "--from", "ingress-nginx", "--to", "gateway-api", "-f", "examples/migration"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 of "), "{out}");
    let (code, out) = cli(&["diff", "--to", "gateway-api", "-f", "tests/cases/migration/trailing-slash"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[trailing-slash-redirect]") && out.contains("GET http://docs.example.com/guide "), "{out}");
    let (code, out) = cli(&["diff", "-f", "tests/cases/migration/wildcard-depth", "--json"]);
    assert_eq!(code, 1, "HTTPRoutes in the input: gateway-api is the default target");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["causes"][0]["cause"], "wildcard-depth");
    let (code, _) = cli(&["diff", "--to", "gateway-api", "-f", "examples/shop/manifests"]);
    assert_eq!(code, 2, "no HTTPRoute: bad input");
}

#[test]
fn tests_written_by_diff_pin_the_new_routing_and_pass() {
    let tests = std::env::temp_dir().join(format!("migration-pinned-{}.yaml", std::process::id()));
    let tests_arg = tests.display().to_string();
    let (code, _) = cli(&[
        "diff",
        "--to",
        "gateway-api",
        "-f",
        "tests/cases/migration/use-regex-whole-host",
        "--tests",
        &tests_arg,
    ]);
    assert_eq!(code, 1);
    let written = std::fs::read_to_string(&tests).unwrap();
    assert!(written.contains("gateway: infra/public") && written.contains("status: 200"), "{written}");
    let (code, out) = cli(&["test", "-f", "tests/cases/migration/use-regex-whole-host", &tests_arg]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" passed, 0 failed"), "{out}");
    std::fs::remove_file(&tests).unwrap();
}

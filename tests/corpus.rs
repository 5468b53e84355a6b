//! The real-world corpus (`tests/corpus/files/`, each file's source noted at its top): the CLI's
//! answer for each file matches `tests/corpus/expected.yaml` (exit code, diagnostic codes, invalid
//! objects, a phrase of the message), and a run over the whole folder never aborts: every command
//! answers, `--json` prints JSON, and the exit code is the worst of the files'.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde::Deserialize;
use serde_json::Value;

const FILES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/files");
const EXPECTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/expected.yaml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    files: BTreeMap<String, Expectation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expectation {
    exit: i32,
    codes: BTreeSet<String>,
    #[serde(default)]
    invalid: u64,
    says: Option<String>,
}

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_ingress-router")).args(args).output().expect("the CLI runs");
    Output {
        code: out.status.code().expect("the CLI exits (no signal)"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn expected() -> Expected {
    serde_norway::from_str(&std::fs::read_to_string(EXPECTED).unwrap()).expect("expected.yaml reads")
}

fn json(out: &Output, what: &str) -> Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}):\n{}", out.stdout))
}

#[test]
fn every_file_has_an_expectation_and_every_expectation_a_file() {
    let on_disk: BTreeSet<String> =
        std::fs::read_dir(FILES).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let listed: BTreeSet<String> = expected().files.into_keys().collect();
    assert_eq!(on_disk, listed);
    assert!(on_disk.len() >= 40, "the corpus has {} files", on_disk.len());
}

#[test]
fn each_file_validates_as_expected() {
    let mut failures = Vec::new();
    for (name, want) in expected().files {
        let path = format!("{FILES}/{name}");
        let out = run(&["validate", "--json", "-f", &path]);
        let v = json(&out, &name);
        let mut got_codes = BTreeSet::new();
        let mut invalid = 0;
        if let Some(diagnostics) = v["diagnostics"].as_array() {
            got_codes = diagnostics.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect();
            invalid = v["summary"]["invalid"].as_u64().unwrap();
        } else {
            assert!(v["error"]["message"].is_string(), "{name}: a failure is a JSON error object: {v}");
        }
        let text = run(&["validate", "-f", &path]);
        let all = format!("{}{}", text.stdout, text.stderr);
        let says = want.says.as_deref().is_none_or(|s| all.contains(s));
        if out.code != want.exit
            || text.code != want.exit
            || got_codes != want.codes
            || invalid != want.invalid
            || !says
        {
            failures.push(format!(
                "{name}: exit {} (text {}), codes {got_codes:?}, invalid {invalid}; expected exit {}, codes {:?}, invalid {}{}\n{all}",
                out.code,
                text.code,
                want.exit,
                want.codes,
                want.invalid,
                want.says.map(|s| format!(", saying {s:?}")).unwrap_or_default(),
            ));
        }
        assert!(!all.contains("internal error"), "{name}: {all}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_whole_folder_at_once_never_aborts() {
    let expected = expected();
    let worst = expected.files.values().map(|e| e.exit).max().unwrap();
    let want_invalid: u64 = expected.files.values().map(|e| e.invalid).sum();

    let out = run(&["validate", "--json", "-f", FILES]);
    assert_eq!(out.code, worst, "validate exits with the worst result:\n{}", out.stderr);
    let v = json(&out, "validate");
    assert_eq!(v["summary"]["invalid"], want_invalid, "every invalid object of every file is reported");
    let unreadable = expected.files.values().filter(|e| e.exit == 2).count();
    assert_eq!(
        v["inputErrors"].as_array().unwrap().len(),
        unreadable - 1,
        "each unreadable file once (comments-only has nothing to read, which is no error in a folder)"
    );
    for e in v["inputErrors"].as_array().unwrap() {
        assert!(e["source"].is_string() && e["message"].is_string(), "{e}");
        assert!(e["line"].is_u64(), "every unreadable file of the corpus has a line: {e}");
    }

    // Routing commands read what they can and say what they left out.
    let table = run(&["table", "--json", "-f", FILES]);
    assert_eq!(table.code, 2, "{}", table.stderr);
    assert!(json(&table, "table")["hosts"].as_array().is_some_and(|h| h.len() > 10));
    assert!(
        table.stderr.contains("warning: ") && table.stderr.contains("left out Ingress \"guestbook\""),
        "{}",
        table.stderr
    );
    let route = run(&["route", "-f", FILES, "https://shop.example.com/"]);
    assert_eq!(route.code, 2);
    assert!(route.stdout.contains("backend:"), "{}", route.stdout);
    let explain = run(&["explain", "--json", "-f", FILES, "https://echo.example.com/"]);
    assert_eq!(explain.code, 2);
    json(&explain, "explain");
}

#[test]
fn json_modes_print_json_for_input_errors_too() {
    let path = format!("{FILES}/type-error-port.yaml");
    for args in [
        &["route", "--json", "-f", &path, "http://a/"][..],
        &["explain", "--json", "-f", &path, "http://a/"],
        &["table", "--json", "-f", &path],
        &["validate", "--json", "-f", &path],
    ] {
        let out = run(args);
        assert_eq!(out.code, 2, "{args:?}");
        let v = json(&out, &format!("{args:?}"));
        let error = &v["error"];
        assert_eq!((error["line"].as_u64(), error["column"].as_u64()), (Some(19), Some(23)), "{args:?}: {v}");
        assert!(error["source"].as_str().unwrap().ends_with("type-error-port.yaml"));
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .starts_with("Ingress in version \"v1\" cannot be handled as a Ingress: json: cannot unmarshal string")
        );
    }
}

#[test]
fn a_list_of_files_with_a_missing_and_a_bad_one_still_routes() {
    let good = format!("{FILES}/k8s-docs-simple-fanout.yaml");
    let template = format!("{FILES}/helm-template-unrendered.yaml");
    let missing = format!("{FILES}/no-such-file.yaml");
    let out = run(&["route", "-f", &missing, "-f", &template, "-f", &good, "http://foo.bar.com/bar/x"]);
    assert_eq!(out.code, 2, "the worst result: input that could not be read");
    assert!(out.stdout.contains("backend:   service2:8080"), "{}", out.stdout);
    assert!(out.stderr.contains("no-such-file.yaml: cannot read"), "{}", out.stderr);
    assert!(
        out.stderr.contains("helm-template-unrendered.yaml, line 2, column 1: this looks like a Helm or Go template"),
        "{}",
        out.stderr
    );
    // Near-miss: the good file alone answers with exit 0.
    assert_eq!(run(&["route", "-f", &good, "http://foo.bar.com/bar/x"]).code, 0);
}

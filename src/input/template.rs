//! Helm and Go templates: a chart's `templates/ingress.yaml` is not a manifest until it is rendered.
//! Without this check it fails as a YAML syntax error (`{{ ... }}` is a flow mapping) or, when the
//! actions sit inside quotes, loads with `{{ .Values.host }}` as a host name.

use alloc::format;

use super::{InputError, InputErrorKind};

/// Words that start a template action after `{{` (and an optional `-` and spaces).
const ACTIONS: &[&str] = &[
    ".",
    "$",
    "/*",
    "include ",
    "template ",
    "if ",
    "else",
    "end",
    "range ",
    "with ",
    "define ",
    "block ",
    "toYaml ",
    "tpl ",
    "printf ",
    "default ",
    "quote ",
    "required ",
    "lookup ",
    "trimSuffix ",
    "trunc ",
    "nindent ",
    "indent ",
];

/// The first template action outside a comment line, as an error naming its line and column.
pub(super) fn find(source: &str, text: &str) -> Option<InputError> {
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("{{") {
            let after = rest[at + 2..].trim_start_matches('-').trim_start();
            if ACTIONS.iter().any(|a| after.starts_with(a)) {
                let column = line.len() - rest.len() + at;
                return Some(error(source, index + 1, line[..column].chars().count() + 1));
            }
            rest = &rest[at + 2..];
        }
    }
    None
}

fn error(source: &str, line: usize, column: usize) -> InputError {
    let mut e = InputError::new(
        InputErrorKind::Template,
        source,
        format!(
            "this looks like a Helm or Go template (`{{{{ ... }}}}` at line {line}): render it first \
             (`helm template RELEASE CHART | ingress-router validate -f -`)"
        ),
    );
    e.line = Some(line);
    e.column = Some(column);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_actions_not_braces() {
        let chart = "{{- if .Values.ingress.enabled -}}\napiVersion: networking.k8s.io/v1\n";
        let e = find("t.yaml", chart).unwrap();
        assert_eq!((e.kind, e.line, e.column), (InputErrorKind::Template, Some(1), Some(1)));
        assert!(e.message.contains("render it first"), "{}", e.message);
        let quoted = "metadata:\n  name: \"{{ include \\\"app.fullname\\\" . }}\"\n";
        assert_eq!(find("t.yaml", quoted).map(|e| (e.line, e.column)), Some((Some(2), Some(10))));
        // Near-misses: braces in a comment, or not starting an action.
        assert!(find("x", "# {{ .Values.x }}\nkind: Ingress\n").is_none());
        assert!(find("x", "metadata:\n  annotations:\n    a: '{{not a template}}'\n").is_none());
    }
}

//! Mapping keys that are not strings. YAML allows a sequence or a mapping as a key (`? [a, b]`);
//! JSON, and so the apiserver, does not: kubectl fails converting the file (`error converting YAML
//! to JSON: yaml: invalid map key`). This finds the first such key of a document, with its line,
//! column and the field path of the mapping that holds it, read with saphyr-parser's events.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use saphyr_parser::{Event, Parser};

/// Where the first non-scalar key of `document` (1-based) is: line, column and the path of the
/// mapping that holds it (`metadata.annotations`).
pub(super) fn first_complex_key(text: &str, document: usize) -> Option<(usize, usize, String)> {
    let mut parser = Parser::new_from_str(text);
    let mut current = 0;
    let mut stack: Vec<Frame> = Vec::new();
    while let Some(Ok((event, span))) = parser.next_event() {
        match event {
            Event::DocumentStart(_) => {
                current += 1;
                stack.clear();
            }
            _ if current != document => {}
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if let Some(Frame::Mapping { key: None, .. }) = stack.last() {
                    return Some((span.start.line(), span.start.col() + 1, path(&stack)));
                }
                let segment = take_segment(&mut stack);
                stack.push(match event {
                    Event::MappingStart(..) => Frame::Mapping { at: segment, key: None },
                    _ => Frame::Sequence { at: segment, next: 0 },
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
            }
            Event::Scalar(text, ..) => match stack.last_mut() {
                Some(Frame::Mapping { key: key @ None, .. }) => *key = Some(text.to_string()),
                _ => {
                    take_segment(&mut stack);
                }
            },
            Event::Alias(_) => {
                take_segment(&mut stack);
            }
            _ => {}
        }
    }
    None
}

enum Frame {
    /// `key` is the pending key once read (the next node is its value).
    Mapping {
        at: Option<String>,
        key: Option<String>,
    },
    Sequence {
        at: Option<String>,
        next: usize,
    },
}

/// The path segment of the node that starts now, and the parent's state moved past it.
fn take_segment(stack: &mut [Frame]) -> Option<String> {
    match stack.last_mut()? {
        Frame::Mapping { key, .. } => key.take(),
        Frame::Sequence { next, .. } => {
            *next += 1;
            Some(format!("[{}]", *next - 1))
        }
    }
}

fn path(stack: &[Frame]) -> String {
    let mut out = String::new();
    for frame in stack {
        let at = match frame {
            Frame::Mapping { at, .. } | Frame::Sequence { at, .. } => at,
        };
        if let Some(segment) = at {
            if !out.is_empty() && !segment.starts_with('[') {
                out.push('.');
            }
            out.push_str(segment);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_key_and_its_mapping() {
        let text = "kind: Ingress\nmetadata:\n  name: b\n  annotations:\n    ? [x, y]\n    : z\n";
        assert_eq!(first_complex_key(text, 1), Some((5, 7, String::from("metadata.annotations"))));
        let list = "items:\n- a: 1\n- {? {k: v} : w}\n";
        assert_eq!(first_complex_key(list, 1), Some((3, 6, String::from("items[1]"))));
        assert_eq!(first_complex_key("a: 1\n---\nb: {c: 2}\n", 2), None);
    }
}

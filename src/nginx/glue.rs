//! The profile behind the crate's one entry point: [`Engine`] is what a [`crate::Router`] holds
//! when compiled with [`Profile::IngressNginx`](crate::Profile::IngressNginx), and this module
//! turns the engine's answers into the crate's [`Decision`](crate::Decision), [`Explanation`],
//! [`TableView`] and [`Diagnostic`]s, so that every adapter reads the same types whatever the profile.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::location::{Location, Modifier, Origin};
use super::server::CATCH_ALL;
use super::{Answer, Issue, Options, Router};
use crate::class;
use crate::decision::{self, BackendRef, IngressRef, MatchedRule, Redirect, Rejection, Via, WeightedBackend};
use crate::diagnostics::{Code, Diagnostic, ObjectRef, Severity};
use crate::explain::{DefaultView, Explanation, HostView, PathView, StandingView, TableView};
use crate::host::{self, MAX_HOST_LEN, Tier};
use crate::model::{Ingress, IngressBackend, IngressClass, Object};
use crate::options::CompileOptions;
use crate::path::{MatchKind, PathType};
use crate::request::Request;
use crate::table::{ExcludedIngress, Exclusion, IngressInfo};

/// The compiled profile, with what the controller would have logged while building it.
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    router: Router,
    issues: Vec<Issue>,
    ingresses: Vec<IngressInfo>,
    pub(crate) options: CompileOptions,
}

impl Engine {
    pub(crate) fn compile(objects: &[Object], options: &CompileOptions) -> Engine {
        let nginx_options =
            Options { ingress_class: options.ingress_class.clone(), default_backend: options.default_backend.clone() };
        let (router, issues) = super::compile(objects, &nginx_options);
        let classes: Vec<&IngressClass> =
            objects.iter().filter_map(|o| if let Object::IngressClass(c) = o { Some(c) } else { None }).collect();
        let find = |namespace: &str, name: &str| {
            objects.iter().find_map(|o| match o {
                Object::Ingress(i) if i.metadata.namespace_or_default() == namespace && i.metadata.name == name => {
                    Some(i)
                }
                _ => None,
            })
        };
        let ingresses = router
            .ingresses
            .iter()
            .map(|r| {
                let ingress: Option<&Ingress> = find(&r.namespace, &r.name);
                IngressInfo {
                    namespace: r.namespace.clone(),
                    name: r.name.clone(),
                    creation_timestamp: ingress.and_then(|i| i.metadata.creation_timestamp.clone()),
                    participation: ingress.map_or(class::Participation::AllClasses, |i| {
                        class::participation(i, options.ingress_class.as_deref(), &classes)
                    }),
                }
            })
            .collect();
        Engine { router, issues, ingresses, options: options.clone() }
    }

    pub(crate) fn route<'r>(&'r self, request: &Request<'_>) -> decision::Decision<'r> {
        let d = self.router.route(request);
        self.decision(d)
    }

    fn decision<'r>(&'r self, d: super::Decision<'r>) -> decision::Decision<'r> {
        let r = &self.router;
        let namespace = |i: usize| r.ingresses[i].namespace.as_str();
        let location_namespace = |l: &Location| match l.origin {
            Origin::Path { ingress, .. } | Origin::ServerDefault { ingress: Some(ingress) } => namespace(ingress),
            Origin::ServerDefault { ingress: None } => "",
        };
        // A canary's backend lives in the canary Ingress's namespace; every other backend in the
        // namespace of the Ingress the location comes from.
        let backend_ref = |b: &'r IngressBackend| {
            let ns = match d.canary {
                Some(c) if core::ptr::eq(b, &c.backend) => namespace(c.ingress),
                _ => d.location.map_or("", location_namespace),
            };
            BackendRef::new(ns, b)
        };
        let matched = d.location.and_then(|l| match &l.origin {
            Origin::Path { ingress, rule, path, path_type, ingress_path } => Some(MatchedRule {
                ingress: IngressRef { namespace: namespace(*ingress), name: &r.ingresses[*ingress].name },
                host: if d.server.hostname == CATCH_ALL { "" } else { &d.server.hostname },
                path: ingress_path,
                path_type: *path_type,
                rule_index: *rule,
                path_index: *path,
            }),
            Origin::ServerDefault { .. } => None,
        });
        let default_from = match d.location.map(|l| &l.origin) {
            Some(Origin::ServerDefault { ingress: Some(i) }) => {
                Some(IngressRef { namespace: namespace(*i), name: &r.ingresses[*i].name })
            }
            _ => None,
        };
        let via = if matched.is_some() { Via::Rule } else { Via::DefaultBackend };
        let mut out = match d.answer {
            Answer::Backend { backend, .. } => {
                decision::Decision::proxied(via, backend_ref(backend), matched, None, None)
            }
            Answer::Split { primary, primary_weight, canary, canary_weight } => {
                let split = backend_ref(primary).zip(backend_ref(canary)).map(|(p, c)| {
                    [
                        WeightedBackend { backend: p, weight: primary_weight },
                        WeightedBackend { backend: c, weight: canary_weight },
                    ]
                });
                decision::Decision::proxied(via, None, matched, split, None)
            }
            Answer::Redirect { status, location } => decision::Decision::redirected(Redirect { status, location }),
            Answer::DefaultBackend(Some(b)) => {
                decision::Decision::proxied(Via::DefaultBackend, backend_ref(b), None, None, None)
            }
            Answer::DefaultBackend(None) => decision::Decision::none(),
            Answer::BadRequest(_) => decision::Decision::rejected(Rejection::InvalidUri),
        };
        out.upstream_path = d.upstream_path;
        if out.via == Via::DefaultBackend {
            out.default_from = default_from;
        }
        out
    }

    /// The nginx rule that decided, and every step: the server, the location, the rule, the
    /// rewrite and the answer.
    pub(crate) fn explain(&self, request: &Request<'_>) -> Explanation {
        let d = self.router.route(request);
        let rule = d.rule();
        let steps = d.steps();
        let server = d.server.server_name();
        let mut buf = [0u8; MAX_HOST_LEN];
        let normalized_host =
            host::normalize_request_host(request.host, &mut buf).map(|h| String::from_utf8_lossy(h).into_owned());
        let path = String::from_utf8_lossy(request.path).into_owned();
        let matched_path = String::from_utf8_lossy(super::uri::split_target(request.path).0).into_owned();
        Explanation {
            host: String::from_utf8_lossy(request.host).into_owned(),
            normalized_host,
            path,
            normalized_path: None,
            matched_path,
            host_steps: Vec::new(),
            tier: None,
            tier_host: Some(server),
            tier_reason: steps.first().cloned().unwrap_or_default(),
            candidates: Vec::new(),
            decided_by: Some(rule),
            default_reason: None,
            steps,
            decision: self.decision(d).view(),
        }
    }

    /// Servers in nginx.conf's order, each with its locations in the order nginx tries them.
    /// A location's `path` is written as nginx.conf has it (`= /p`, `/p/`, `~* "^/p"`); its
    /// `matchKind` is `exact` for `=` and `string-prefix` for the others (nginx prefixes are
    /// string prefixes, and its regexes are anchored with `^`).
    pub(crate) fn table(&self) -> TableView {
        let r = &self.router;
        let key = |i: usize| r.ingress_key(i);
        let hosts = r
            .servers
            .iter()
            .map(|s| {
                let tier = if s.hostname == CATCH_ALL {
                    Tier::Any
                } else if s.hostname.starts_with("*.") {
                    Tier::Wildcard
                } else {
                    Tier::Exact
                };
                let paths = s
                    .locations
                    .list
                    .iter()
                    .map(|l| {
                        let (ingress, path_type, field) = match &l.origin {
                            Origin::Path { ingress, rule, path, path_type, .. } => {
                                (key(*ingress), *path_type, alloc::format!("spec.rules[{rule}].http.paths[{path}]"))
                            }
                            Origin::ServerDefault { ingress } => {
                                (ingress.map(key).unwrap_or_default(), PathType::Prefix, String::new())
                            }
                        };
                        let backend = l.backend.as_ref().map_or_else(
                            || String::from("(default backend)"),
                            |b| match l.canary {
                                Some(c) => alloc::format!("{b} (canary {})", r.canaries[c].backend),
                                None => b.to_string(),
                            },
                        );
                        PathView {
                            ingress,
                            path: l.nginx_syntax(),
                            path_type,
                            match_kind: if l.modifier == Modifier::Exact {
                                MatchKind::Exact
                            } else {
                                MatchKind::StringPrefix
                            },
                            backend,
                            field,
                            standing: StandingView::Active,
                            answer: None,
                        }
                    })
                    .collect();
                let mut name = s.server_name();
                for alias in &s.aliases {
                    name.push(' ');
                    name.push_str(alias);
                }
                HostView { host: name, tier, paths, default_backend: None }
            })
            .collect();
        let excluded = self
            .issues
            .iter()
            .filter(|i| matches!(i.code, Code::NotServed | Code::InvalidIngress))
            .filter_map(|i| {
                let (namespace, name) = i.ingress.as_deref()?.split_once('/')?;
                Some(ExcludedIngress {
                    namespace: namespace.into(),
                    name: name.into(),
                    reason: i.message.clone(),
                    cause: if i.code == Code::NotServed { Exclusion::NotServed } else { Exclusion::Invalid },
                    errors: Vec::new(),
                })
            })
            .collect();
        TableView {
            hosts,
            default_backend: self
                .options
                .default_backend
                .as_ref()
                .and_then(|b| BackendRef::new("", b))
                .map(|b| DefaultView { backend: b.to_string(), ingress: None, answer: None }),
            ingresses: self.ingresses.clone(),
            excluded,
        }
    }

    /// What the controller would log, refuse or ignore, as crate diagnostics.
    pub(crate) fn diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.issues.iter().map(|issue| {
            let severity = match issue.code {
                Code::InvalidIngress => Severity::Error,
                Code::NotServed => Severity::Note,
                _ => Severity::Warning,
            };
            let fix = match issue.code {
                Code::InvalidIngress => "correct the fields named above; the apiserver would reject this Ingress",
                Code::NotServed => "set spec.ingressClassName to the served class if this Ingress should route",
                Code::NginxSkippedPath => "change the path or its backend so that ingress-nginx writes a location",
                Code::NginxInertCanary => "give the canary the host, path and pathType of the Ingress it shadows",
                _ => "correct or remove the annotation: ingress-nginx did not apply it",
            };
            let objects = issue
                .ingress
                .as_deref()
                .and_then(|k| k.split_once('/'))
                .map(|(ns, name)| {
                    let o = ObjectRef::ingress(ns, name);
                    if issue.field.is_empty() { o } else { o.with_field(issue.field.clone()) }
                })
                .into_iter()
                .collect();
            Diagnostic {
                code: issue.code,
                severity,
                message: alloc::format!("ingress-nginx: {}", issue.message),
                objects,
                fix: String::from(fix),
            }
        })
    }
}

//! The profile behind the crate's one entry point: [`Engine`] is what a [`crate::Router`] holds
//! when compiled with [`Profile::IngressNginx`](crate::Profile::IngressNginx), and this module
//! turns the engine's answers into the crate's [`Handled`](crate::Decision), [`Explanation`],
//! [`TableView`] and [`Diagnostic`]s, so that every adapter reads the same types whatever the profile.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::location::{Choice, Location, Modifier, Origin};
use super::server::CATCH_ALL;
use super::{Answer, Conf, Issue, Options};
use crate::class;
use crate::decision::{self, BackendRef, IngressRef, MatchedRule, Redirect, Rejection, Via, WeightedBackend};
use crate::diagnostics::Code;
#[cfg(feature = "lint")]
use crate::diagnostics::{Diagnostic, ObjectRef, Severity};
use crate::explain::{Candidate, DefaultView, Explanation, HostView, PathView, StandingView, TableView};
use crate::host::{self, MAX_HOST_LEN, Tier};
use crate::model::{Ingress, IngressBackend, IngressClass, Object};
use crate::options::CompileOptions;
use crate::path::{MatchKind, PathType};
use crate::request::Request;
use crate::table::{ExcludedIngress, Exclusion, IngressInfo};

/// The compiled profile, with what the controller would have logged while building it.
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    router: Conf,
    /// By server, by location: the answer numbers of its own backend and of its canary.
    location_answers: Vec<Vec<LocationAnswers>>,
    /// By answer number: where it comes from.
    answers: Vec<AnswerSource>,
    issues: Vec<Issue>,
    ingresses: Vec<IngressInfo>,
    pub(crate) options: CompileOptions,
}

impl Engine {
    pub(crate) fn new(objects: &[Object], options: &CompileOptions) -> Engine {
        let nginx_options = Options {
            ingress_class: options.ingress_class.clone(),
            default_backend: options.default_backend.clone(),
            regex_limits: options.regex_limits,
        };
        let (router, issues) = super::build(objects, &nginx_options);
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
        let (location_answers, answers) = number_answers(&router);
        Engine { router, location_answers, answers, issues, ingresses, options: options.clone() }
    }

    /// How many answers the table has ([`decision::Decision::answer`]).
    pub(crate) fn answer_count(&self) -> usize {
        self.answers.len()
    }

    /// The decision of a request answered by `answer`: the location's backend (or its canary's)
    /// and the rule it comes from; what depends on the request (a rewritten path, the weights of
    /// a split) is not part of an answer.
    pub(crate) fn answer(&self, answer: usize) -> Option<decision::Decision<'_>> {
        let &AnswerSource { server: server_index, location: index, canary } = self.answers.get(answer)?;
        let server = self.router.servers.get(server_index as usize)?;
        let location = server.locations.list.get(index as usize)?;
        let primary = location.backend.as_ref()?;
        let canary = if canary { Some(&self.router.canaries[location.canary?]) } else { None };
        let d = super::Handled {
            answer: match canary {
                Some(c) => Answer::Backend { backend: &c.backend, canary: None },
                None if matches!(location.origin, Origin::ServerDefault { .. }) => {
                    Answer::DefaultBackend(Some(primary))
                }
                None => Answer::Backend { backend: primary, canary: None },
            },
            server,
            server_index: server_index as usize,
            server_match: super::server::ServerMatch::Exact,
            location: Some(location),
            choice: Choice::Exact(index as usize),
            canary,
            upstream_path: None,
            why: None,
            regex_exhausted: false,
        };
        Some(self.decision(d))
    }

    /// The request headers decisions read, lower-case: the canaries' `canary-by-header` names,
    /// and `cookie` when a canary reads one.
    pub(crate) fn header_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for c in self.router.canaries.iter().filter(|c| !c.deleted) {
            let cookie = c.cookie.as_ref().map(|_| "cookie");
            for name in c.header.as_deref().into_iter().chain(cookie) {
                let name = name.to_ascii_lowercase();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }

    pub(crate) fn route<'r>(&'r self, request: &Request<'_>) -> decision::Decision<'r> {
        let d = self.router.route(request);
        self.decision(d)
    }

    fn decision<'r>(&'r self, d: super::Handled<'r>) -> decision::Decision<'r> {
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
            Origin::Path { ingress, rule, path, declared, ingress_path, .. } => Some(MatchedRule {
                ingress: IngressRef { namespace: namespace(*ingress), name: &r.ingresses[*ingress].name },
                host: if d.server.hostname == CATCH_ALL { "" } else { &d.server.hostname },
                path: ingress_path,
                path_type: *declared,
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
        let location_index = match d.choice {
            Choice::Exact(i) | Choice::Prefix(i) | Choice::Regex { index: i, .. } => Some(i),
            Choice::AutoRedirect(_) | Choice::None => None,
        };
        let [primary_answer, canary_answer] = location_index
            .and_then(|l| self.location_answers.get(d.server_index)?.get(l))
            .map_or([None, None], |a| a.map(|n| n.map(|n| n as usize)));
        let mut out = match d.answer {
            Answer::Backend { backend, .. } => {
                let to_canary = d.canary.is_some_and(|c| core::ptr::eq(backend, &c.backend));
                let answer = if to_canary { canary_answer } else { primary_answer };
                decision::Decision::proxied(via, backend_ref(backend), matched, None, None, answer)
            }
            Answer::Split { primary, primary_weight, canary, canary_weight } => {
                let side = |backend: &'r IngressBackend, weight, answer: Option<usize>| {
                    Some(WeightedBackend { backend: backend_ref(backend)?, weight, answer: answer? })
                };
                let split = side(primary, primary_weight, primary_answer)
                    .zip(side(canary, canary_weight, canary_answer))
                    .map(|(p, c)| [p, c]);
                decision::Decision::proxied(via, None, matched, split, None, None)
            }
            Answer::Redirect { status, location } => decision::Decision::redirected(Redirect { status, location }),
            Answer::DefaultBackend(Some(b)) => {
                decision::Decision::proxied(Via::DefaultBackend, backend_ref(b), None, None, None, primary_answer)
            }
            Answer::DefaultBackend(None) => decision::Decision::none(),
            Answer::BadRequest(_) => decision::Decision::rejected(Rejection::InvalidUri),
        };
        out.upstream_path = d.upstream_path;
        out.regex_exhausted = d.regex_exhausted;
        if out.via == Via::DefaultBackend {
            out.default_from = default_from;
        }
        out
    }

    /// The nginx rule that decides `request`: [`explain`](Self::explain)'s `decided_by`, without
    /// judging every location of the configuration.
    #[cfg(feature = "yaml")]
    pub(crate) fn rule(&self, request: &Request<'_>) -> String {
        self.router.route(request).rule()
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
        let candidates = self.candidates(request, &d);
        Explanation {
            host: String::from_utf8_lossy(request.host).into_owned(),
            normalized_host,
            path,
            normalized_path: None,
            matched_path,
            host_steps: Vec::new(),
            tier: Some(server_tier(d.server)),
            tier_host: Some(server),
            tier_reason: steps.first().cloned().unwrap_or_default(),
            candidates,
            decided_by: Some(rule),
            default_reason: None,
            steps,
            decision: self.decision(d).view(request),
            #[cfg(feature = "gateway")]
            gateway: None,
        }
    }

    /// Every location of the request's server judged as nginx judges it (and the canary of the
    /// one chosen), then the other servers' locations, which do not compete.
    fn candidates(&self, request: &Request<'_>, d: &super::Handled<'_>) -> Vec<Candidate> {
        let r = &self.router;
        let server_host =
            |s: &super::server::Server| if s.hostname == CATCH_ALL { String::new() } else { s.server_name() };
        let candidate = |s: &super::server::Server, l: &Location, backend: String| {
            let (ingress, path_type, field) = self.origin(&l.origin);
            Candidate {
                ingress,
                host: server_host(s),
                path: l.nginx_syntax(),
                path_type,
                match_kind: if l.modifier == Modifier::Exact { MatchKind::Exact } else { MatchKind::StringPrefix },
                backend,
                field,
                considered: false,
                matched: false,
                chosen: false,
                rank: None,
                reason: String::new(),
            }
        };
        let label =
            |l: &Location| l.backend.as_ref().map_or_else(|| String::from("(default backend)"), |b| b.to_string());
        let mut out = Vec::new();
        let (path, _) = super::uri::split_target(request.path);
        // A URI nginx refuses (400) reaches no location; an app-root redirect none either.
        let uri = super::uri::normalize(path).ok().filter(|_| d.location.is_some() || d.choice != Choice::None);
        if let Some(uri) = uri {
            let fuel = super::regex::Fuel::new(r.regex_scan);
            for j in d.server.locations.judge(&uri, &fuel, d.choice) {
                let l = &d.server.locations.list[j.index];
                let mut c = candidate(d.server, l, label(l));
                (c.considered, c.matched, c.chosen, c.rank, c.reason) = (true, j.matched, j.chosen, j.rank, j.reason);
                let canary = l.canary.filter(|_| j.chosen).map(|i| &r.canaries[i]);
                // Chosen, but the canary took the request: the location's own backend lost to it.
                let to_canary = matches!(d.answer, Answer::Backend { backend, .. } if canary.is_some_and(|k| core::ptr::eq(backend, &k.backend)));
                if to_canary {
                    c.chosen = false;
                    c.reason.push_str(&alloc::format!(
                        "; its canary {} takes the request",
                        canary.map(|k| k.backend.to_string()).unwrap_or_default()
                    ));
                }
                out.push(c);
                if let Some(k) = canary {
                    let mut c = candidate(d.server, l, k.backend.to_string());
                    c.considered = true;
                    c.matched = true;
                    c.chosen = to_canary || matches!(d.answer, Answer::Split { .. });
                    c.reason = alloc::format!("the canary of this location: {}", super::verdict_text(&d.answer));
                    out.push(c);
                }
            }
        }
        // Ranks by position among the matching ones, the canary counted.
        for (rank, c) in out.iter_mut().take_while(|c| c.matched).enumerate() {
            c.rank = Some(rank);
        }
        for (_, s) in r.servers.iter().enumerate().filter(|(i, _)| *i != d.server_index) {
            for l in &s.locations.list {
                let mut c = candidate(s, l, label(l));
                c.reason = alloc::format!("in server {}, not the request's", s.server_name());
                out.push(c);
            }
        }
        out
    }

    /// The Ingress (`namespace/name`), pathType and field a location comes from.
    fn origin(&self, origin: &Origin) -> (String, PathType, String) {
        let key = |i: usize| self.router.ingress_key(i);
        match origin {
            Origin::Path { ingress, rule, path, declared, .. } => {
                (key(*ingress), *declared, alloc::format!("spec.rules[{rule}].http.paths[{path}]"))
            }
            Origin::ServerDefault { ingress } => {
                (ingress.map(key).unwrap_or_default(), PathType::Prefix, String::new())
            }
        }
    }

    /// Servers in nginx.conf's order, each with its locations in the order nginx tries them.
    /// A location's `path` is written as nginx.conf has it (`= /p`, `/p/`, `~* "^/p"`); its
    /// `matchKind` is `exact` for `=` and `string-prefix` for the others (nginx prefixes are
    /// string prefixes, and its regexes are anchored with `^`).
    pub(crate) fn table(&self) -> TableView {
        let r = &self.router;
        let hosts = r
            .servers
            .iter()
            .enumerate()
            .map(|(server, s)| {
                let tier = server_tier(s);
                let paths = s
                    .locations
                    .list
                    .iter()
                    .enumerate()
                    .map(|(location, l)| {
                        let (ingress, path_type, field) = self.origin(&l.origin);
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
                            answer: self.location_answers[server][location][0].map(|n| n as usize),
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
            #[cfg(feature = "gateway")]
            gateway: None,
        }
    }

    /// What the controller would log, refuse or ignore, as crate diagnostics.
    #[cfg(feature = "lint")]
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

/// The host tier a server stands for.
fn server_tier(s: &super::server::Server) -> Tier {
    if s.hostname == CATCH_ALL {
        Tier::Any
    } else if s.hostname.starts_with("*.") {
        Tier::Wildcard
    } else {
        Tier::Exact
    }
}

/// The answer numbers of a location: its own backend's, then its canary's.
type LocationAnswers = [Option<u32>; 2];

/// Where an answer comes from: a location, and whether it is the canary's side.
#[derive(Clone, Copy, Debug)]
struct AnswerSource {
    server: u32,
    location: u32,
    canary: bool,
}

/// Numbers every backend a location can answer with: its own (when it has one), then its canary's.
fn number_answers(router: &Conf) -> (Vec<Vec<LocationAnswers>>, Vec<AnswerSource>) {
    let mut answers = Vec::new();
    let mut next = |server: usize, location: usize, canary: bool| {
        answers.push(AnswerSource { server: server as u32, location: location as u32, canary });
        Some(answers.len() as u32 - 1)
    };
    let mut by_location = Vec::with_capacity(router.servers.len());
    for (s, server) in router.servers.iter().enumerate() {
        let mut numbers = Vec::with_capacity(server.locations.list.len());
        for (l, location) in server.locations.list.iter().enumerate() {
            let own = if location.backend.is_some() { next(s, l, false) } else { None };
            let canary = if location.backend.is_some() && location.canary.is_some() { next(s, l, true) } else { None };
            numbers.push([own, canary]);
        }
        by_location.push(numbers);
    }
    (by_location, answers)
}

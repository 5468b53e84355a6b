//! The order among matching rules, as `HTTPRouteSpec.Hostnames` and `HTTPRouteRule.Matches`
//! write it: one key per (route, hostname, rule, match), smaller first, compared component by
//! component; the first component that differs is the one a loser "lost on".

use serde::Serialize;

use super::matching;
use super::model::{HttpRouteMatch, ValueMatchType};
use super::regex::RegexOrder;

/// The components of the precedence, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PrecedenceKey {
    /// Characters in the matching non-wildcard (intersected) hostname.
    PreciseHostname,
    /// Characters in the matching hostname (a wildcard's suffix).
    HostnameLength,
    /// An `Exact` path match before any `PathPrefix` one (`RegularExpression`: where
    /// [`RegexOrder`] puts it).
    ExactPath,
    /// The path value (or pattern) with the most characters, as written.
    PathLength,
    /// A method match before none.
    Method,
    /// The most header matches (distinct names).
    HeaderCount,
    /// Then the most `Exact` header matches ([`RegexOrder::EnvoyGateway`] only).
    ExactHeaderCount,
    /// The most query-parameter matches (distinct names).
    QueryCount,
    /// Then the most `Exact` query-parameter matches ([`RegexOrder::EnvoyGateway`] only).
    ExactQueryCount,
    /// The oldest route by `creationTimestamp` (none counts as newest).
    Age,
    /// The route first in `{namespace}/{name}` order.
    Name,
    /// The first matching rule of the route.
    RuleOrder,
    /// The first match of the rule (the same rule either way; reported for completeness).
    MatchOrder,
    /// GRPCRoute: the most characters of the matching service.
    ServiceLength,
    /// GRPCRoute: then the most characters of the matching method.
    MethodLength,
}

impl PrecedenceKey {
    /// What the winner has that a candidate losing on this key lacks, in words.
    pub fn winner_has(self) -> &'static str {
        match self {
            PrecedenceKey::PreciseHostname => "a longer precise (non-wildcard) hostname",
            PrecedenceKey::HostnameLength => "a longer matching hostname",
            PrecedenceKey::ExactPath => "a path match type that ranks first (Exact, then the regex order's)",
            PrecedenceKey::PathLength => "a longer path",
            PrecedenceKey::Method => "a method match",
            PrecedenceKey::HeaderCount => "more header matches",
            PrecedenceKey::ExactHeaderCount => "more Exact header matches",
            PrecedenceKey::QueryCount => "more query parameter matches",
            PrecedenceKey::ExactQueryCount => "more Exact query parameter matches",
            PrecedenceKey::Age => "an older route (creationTimestamp)",
            PrecedenceKey::Name => "a route first in namespace/name order",
            PrecedenceKey::RuleOrder => "an earlier rule of the same route",
            PrecedenceKey::MatchOrder => "an earlier match of the same rule",
            PrecedenceKey::ServiceLength => "a longer service",
            PrecedenceKey::MethodLength => "a longer method",
        }
    }
}

const KEYS: [PrecedenceKey; 13] = [
    PrecedenceKey::PreciseHostname,
    PrecedenceKey::HostnameLength,
    PrecedenceKey::ExactPath,
    PrecedenceKey::PathLength,
    PrecedenceKey::Method,
    PrecedenceKey::HeaderCount,
    PrecedenceKey::ExactHeaderCount,
    PrecedenceKey::QueryCount,
    PrecedenceKey::ExactQueryCount,
    PrecedenceKey::Age,
    PrecedenceKey::Name,
    PrecedenceKey::RuleOrder,
    PrecedenceKey::MatchOrder,
];

/// What a GRPCRoute candidate holds in the path-class component: after every HTTPRoute class, so
/// that the components after it read as GRPCRoute's (service, method, headers).
const GRPC: u64 = u64::MAX;

/// A candidate's key: smaller wins. Larger-is-better counts are stored inverted. A GRPCRoute's
/// match ranks by the hostname, the characters of its service, of its method, and its header
/// matches, then as an HTTPRoute's by age, name, rule and match (`GRPCRouteRule.Matches`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key(pub [u64; 13]);

/// The route's place in the age and name orders (computed once for all routes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteRank {
    pub age: u64,
    pub name: u64,
    /// A GRPCRoute's: its matches rank by GRPCRoute's rules, a match without `method` included.
    pub grpc: bool,
}

impl Key {
    /// The key of match `match_index` of rule `rule` of a route, reached through `hostname` (an
    /// intersected hostname: precise, `*.suffix` or `*`).
    pub fn new(
        hostname: &str,
        m: &HttpRouteMatch,
        rank: RouteRank,
        rule: usize,
        match_index: usize,
        order: RegexOrder,
    ) -> Key {
        let (precise, chars) = super::hostname::specificity(hostname);
        if rank.grpc {
            let (service, method) = m.grpc.as_ref().map_or((0, 0), super::model::GrpcMethodMatch::lengths);
            return Key([
                u64::MAX - precise as u64,
                u64::MAX - chars as u64,
                GRPC,
                u64::MAX - service as u64,
                u64::MAX - method as u64,
                u64::MAX - matching::distinct(&m.headers, true) as u64,
                0,
                0,
                0,
                rank.age,
                rank.name,
                rule as u64,
                match_index as u64,
            ]);
        }
        let exact = |matches: &[super::model::ValueMatch], ignore_case| match order {
            RegexOrder::EnvoyGateway => (0..matches.len())
                .filter(|&i| {
                    matching::first_of_name(matches, i, ignore_case) && matches[i].kind == ValueMatchType::Exact
                })
                .count() as u64,
            RegexOrder::Istio => 0,
        };
        Key([
            u64::MAX - precise as u64,
            u64::MAX - chars as u64,
            order.path_class(m.path.kind),
            u64::MAX - m.path.value.len() as u64,
            u64::from(m.method.is_none()),
            u64::MAX - matching::distinct(&m.headers, true) as u64,
            u64::MAX - exact(&m.headers, true),
            u64::MAX - matching::distinct(&m.query_params, false) as u64,
            u64::MAX - exact(&m.query_params, false),
            rank.age,
            rank.name,
            rule as u64,
            match_index as u64,
        ])
    }

    /// Whether this is a GRPCRoute match's key.
    pub fn is_grpc(&self) -> bool {
        self.0[2] == GRPC
    }

    /// The first component where `self` and `other` differ.
    pub fn first_difference(&self, other: &Key) -> Option<PrecedenceKey> {
        let grpc = self.is_grpc() && other.is_grpc();
        self.0.iter().zip(other.0.iter()).position(|(a, b)| a != b).map(|i| match (grpc, i) {
            (true, 3) => PrecedenceKey::ServiceLength,
            (true, 4) => PrecedenceKey::MethodLength,
            _ => KEYS[i],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::model::{PathMatch, PathMatchType, ValueMatch};
    use alloc::string::ToString;
    use alloc::vec;

    fn prefix(value: &str) -> HttpRouteMatch {
        HttpRouteMatch {
            path: PathMatch { kind: PathMatchType::PathPrefix, value: value.to_string() },
            ..Default::default()
        }
    }

    const R: RouteRank = RouteRank { age: 0, name: 0, grpc: false };

    #[test]
    fn order_of_components() {
        let exact = HttpRouteMatch {
            path: PathMatch { kind: PathMatchType::Exact, value: "/a".to_string() },
            ..Default::default()
        };
        let long = prefix("/a/b");
        let method = HttpRouteMatch { method: Some("GET".to_string()), ..prefix("/a") };
        let header = ValueMatch { kind: ValueMatchType::Exact, name: "h".to_string(), value: "v".to_string() };
        let headers = HttpRouteMatch { headers: vec![header], ..prefix("/a") };
        let k = |m: &HttpRouteMatch| Key::new("*", m, R, 0, 0, RegexOrder::EnvoyGateway);
        assert!(Key::new("a.com", &prefix("/"), R, 0, 0, RegexOrder::EnvoyGateway) < k(&exact));
        assert!(Key::new("*.a.com", &prefix("/"), R, 0, 0, RegexOrder::EnvoyGateway) < k(&exact));
        assert_eq!(k(&exact).first_difference(&k(&long)), Some(PrecedenceKey::ExactPath));
        assert!(k(&exact) < k(&long));
        assert!(k(&long) < k(&method));
        assert!(k(&method) < k(&headers));
        assert!(k(&headers) < k(&prefix("/a")));
        assert_eq!(k(&method).first_difference(&k(&headers)), Some(PrecedenceKey::Method));
        let older =
            Key::new("*", &prefix("/"), RouteRank { age: 0, name: 1, grpc: false }, 3, 0, RegexOrder::EnvoyGateway);
        let newer =
            Key::new("*", &prefix("/"), RouteRank { age: 1, name: 0, grpc: false }, 0, 0, RegexOrder::EnvoyGateway);
        assert_eq!(older.first_difference(&newer), Some(PrecedenceKey::Age));
        assert!(older < newer);
    }
}

//! The `x-kubernetes-validations` (CEL) rules of the standard-channel Gateway API CRDs v1.6.1,
//! each a Rust check named after what it checks, with the CRD's `message` verbatim. There is no
//! CEL engine: each function evaluates its rule's expression (quoted above it, as in the CRD)
//! on the defaulted object. The apiserver runs these only when the schema found no "blocking"
//! error (required, enum, too long, too many, wrong type), so a check may assume required fields
//! are present and of their type. A check returns `Err` where CEL itself fails to evaluate (a
//! missing key read without `has`), which the apiserver reports as `<error> evaluating rule:
//! <message>`.
//!
//! Left out: GatewayClass `spec.controllerName`'s `self == oldSelf` ("Value is immutable"), a
//! transition rule that only an update evaluates.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use super::patterns;

/// One rule: its message, and the check (`Ok(true)` when the rule holds).
pub(crate) struct Rule {
    pub(crate) message: &'static str,
    pub(crate) check: fn(&Value) -> Result<bool, String>,
}

const fn rule(message: &'static str, check: fn(&Value) -> Result<bool, String>) -> Rule {
    Rule { message, check }
}

// ------------------------------------------------------------------------------------------------
// CEL's view of a value: `has(x.f)`, `x.f` (a string, absent: ""), `x.f.size()`.

fn has(v: &Value, key: &str) -> bool {
    v.get(key).is_some_and(|f| !f.is_null())
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn items(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn field_items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).map_or(&[], items)
}

/// `!has(x.f) || x.f == ''`.
fn empty(v: &Value, key: &str) -> bool {
    !has(v, key) || text(v, key).is_empty()
}

// ------------------------------------------------------------------------------------------------
// HTTPRoute `spec.parentRefs`

/// The same parent: group, kind and name equal, and both namespaces unset (or empty) or both set
/// and equal.
fn same_parent(p1: &Value, p2: &Value) -> bool {
    text(p1, "group") == text(p2, "group")
        && text(p1, "kind") == text(p2, "kind")
        && text(p1, "name") == text(p2, "name")
        && ((empty(p1, "namespace") && empty(p2, "namespace"))
            || (has(p1, "namespace") && has(p2, "namespace") && text(p1, "namespace") == text(p2, "namespace")))
}

/// `self.all(p1, self.all(p2, <same parent> ? ((!has(p1.sectionName) || p1.sectionName == '') ==
/// (!has(p2.sectionName) || p2.sectionName == '')) : true))`
fn section_name_given_for_repeated_parent(refs: &Value) -> Result<bool, String> {
    let refs = items(refs);
    Ok(refs
        .iter()
        .all(|p1| refs.iter().all(|p2| !same_parent(p1, p2) || empty(p1, "sectionName") == empty(p2, "sectionName"))))
}

/// `self.all(p1, self.exists_one(p2, <same parent> && (<both sectionNames empty> ||
/// (has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName))))`
fn section_name_unique_for_repeated_parent(refs: &Value) -> Result<bool, String> {
    let refs = items(refs);
    Ok(refs.iter().all(|p1| {
        let same_section = |p2: &Value| {
            (empty(p1, "sectionName") && empty(p2, "sectionName"))
                || (has(p1, "sectionName")
                    && has(p2, "sectionName")
                    && text(p1, "sectionName") == text(p2, "sectionName"))
        };
        refs.iter().filter(|p2| same_parent(p1, p2) && same_section(p2)).count() == 1
    }))
}

pub(crate) static PARENT_REFS: &[Rule] = &[
    rule(
        "sectionName must be specified when parentRefs includes 2 or more references to the same parent",
        section_name_given_for_repeated_parent,
    ),
    rule(
        "sectionName must be unique when parentRefs includes 2 or more references to the same parent",
        section_name_unique_for_repeated_parent,
    ),
];

// ------------------------------------------------------------------------------------------------
// HTTPRoute `spec.rules` and each rule

/// `(self.size() > 0 ? self[0].matches.size() : 0) + ... + (self.size() > 15 ? self[15].matches.size() : 0) <= 128`
fn total_matches_at_most_128(rules: &Value) -> Result<bool, String> {
    let total: usize = items(rules).iter().take(16).map(|r| field_items(r, "matches").len()).sum();
    Ok(total <= 128)
}

pub(crate) static RULES: &[Rule] = &[rule(
    "While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route must be less than 128",
    total_matches_at_most_128,
)];

/// `(has(self.backendRefs) && size(self.backendRefs) > 0) ? (!has(self.filters) ||
/// self.filters.all(f, !has(f.requestRedirect))): true`
fn redirect_not_with_backend_refs(rule: &Value) -> Result<bool, String> {
    Ok(field_items(rule, "backendRefs").is_empty()
        || field_items(rule, "filters").iter().all(|f| !has(f, "requestRedirect")))
}

/// `has(f.<filter>) && has(f.<filter>.path) && f.<filter>.path.type == 'ReplacePrefixMatch' &&
/// has(f.<filter>.path.replacePrefixMatch)`
fn replaces_prefix(filter: &Value, kind: &str) -> bool {
    filter
        .get(kind)
        .and_then(|f| f.get("path"))
        .is_some_and(|p| text(p, "type") == "ReplacePrefixMatch" && has(p, "replacePrefixMatch"))
}

/// `(size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type !=
/// 'PathPrefix') ? false : true`
fn one_path_prefix_match(rule: &Value) -> bool {
    match field_items(rule, "matches") {
        [only] => only.get("path").is_some_and(|p| text(p, "type") == "PathPrefix"),
        _ => false,
    }
}

/// `(has(self.filters) && self.filters.exists_one(f, <replaces prefix>)) ? <one PathPrefix match> : true`
fn prefix_replacement_needs_one_prefix_match(rule: &Value, kind: &str) -> bool {
    let replacing = field_items(rule, "filters").iter().filter(|f| replaces_prefix(f, kind)).count();
    replacing != 1 || one_path_prefix_match(rule)
}

/// `(has(self.backendRefs) && self.backendRefs.exists_one(b, (has(b.filters) &&
/// b.filters.exists_one(f, <replaces prefix>)))) ? <one PathPrefix match> : true`
fn backend_prefix_replacement_needs_one_prefix_match(rule: &Value, kind: &str) -> bool {
    let replacing = field_items(rule, "backendRefs")
        .iter()
        .filter(|b| field_items(b, "filters").iter().filter(|f| replaces_prefix(f, kind)).count() == 1)
        .count();
    replacing != 1 || one_path_prefix_match(rule)
}

fn redirect_prefix_replacement_needs_one_prefix_match(rule: &Value) -> Result<bool, String> {
    Ok(prefix_replacement_needs_one_prefix_match(rule, "requestRedirect"))
}

fn rewrite_prefix_replacement_needs_one_prefix_match(rule: &Value) -> Result<bool, String> {
    Ok(prefix_replacement_needs_one_prefix_match(rule, "urlRewrite"))
}

fn backend_redirect_prefix_replacement_needs_one_prefix_match(rule: &Value) -> Result<bool, String> {
    Ok(backend_prefix_replacement_needs_one_prefix_match(rule, "requestRedirect"))
}

fn backend_rewrite_prefix_replacement_needs_one_prefix_match(rule: &Value) -> Result<bool, String> {
    Ok(backend_prefix_replacement_needs_one_prefix_match(rule, "urlRewrite"))
}

pub(crate) static RULE: &[Rule] = &[
    rule("RequestRedirect filter must not be used together with backendRefs", redirect_not_with_backend_refs),
    rule(
        "When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        redirect_prefix_replacement_needs_one_prefix_match,
    ),
    rule(
        "When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        rewrite_prefix_replacement_needs_one_prefix_match,
    ),
    rule(
        "Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        backend_redirect_prefix_replacement_needs_one_prefix_match,
    ),
    rule(
        "Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        backend_rewrite_prefix_replacement_needs_one_prefix_match,
    ),
];

/// `(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true` (a backendRef's
/// and a mirror's backendRef).
fn service_ref_has_port(backend: &Value) -> Result<bool, String> {
    Ok(!(text(backend, "group").is_empty() && text(backend, "kind") == "Service") || has(backend, "port"))
}

pub(crate) static BACKEND_REF: &[Rule] = &[rule("Must have port for Service reference", service_ref_has_port)];

/// `!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') &&
/// duration(self.backendRequest) > duration(self.request))`. A value that is not a duration
/// already fails the field's pattern; it is not compared here.
fn backend_request_within_request(timeouts: &Value) -> Result<bool, String> {
    let request = timeouts.get("request").and_then(Value::as_str).and_then(patterns::duration_millis);
    let backend = timeouts.get("backendRequest").and_then(Value::as_str).and_then(patterns::duration_millis);
    Ok(match (request, backend) {
        (Some(request), Some(backend)) => request == 0 || backend <= request,
        _ => true,
    })
}

pub(crate) static TIMEOUTS: &[Rule] =
    &[rule("backendRequest timeout cannot be longer than request timeout", backend_request_within_request)];

// ------------------------------------------------------------------------------------------------
// HTTPRoute matches: `spec.rules[].matches[].path`

/// `self.type in ['Exact','PathPrefix']`.
fn literal_path(path: &Value) -> bool {
    matches!(text(path, "type"), "Exact" | "PathPrefix")
}

/// `(self.type in ['Exact','PathPrefix']) ? self.value.startsWith('/') : true`
fn path_starts_with_slash(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || text(path, "value").starts_with('/'))
}

/// `(self.type in ['Exact','PathPrefix']) ? !self.value.contains('//') : true`
fn path_has_no_double_slash(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").contains("//"))
}

/// `... ? !self.value.contains('/./') : true`
fn path_has_no_dot_segment(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").contains("/./"))
}

/// `... ? !self.value.contains('/../') : true`
fn path_has_no_dot_dot_segment(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").contains("/../"))
}

/// `... ? !self.value.contains('%2f') : true`
fn path_has_no_lowercase_encoded_slash(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").contains("%2f"))
}

/// `... ? !self.value.contains('%2F') : true`
fn path_has_no_uppercase_encoded_slash(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").contains("%2F"))
}

/// `... ? !self.value.contains('#') : true`
fn path_has_no_fragment(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").contains('#'))
}

/// `... ? !self.value.endsWith('/..') : true`
fn path_does_not_end_with_dot_dot(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").ends_with("/.."))
}

/// `... ? !self.value.endsWith('/.') : true`
fn path_does_not_end_with_dot(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || !text(path, "value").ends_with("/."))
}

/// `self.type in ['Exact','PathPrefix'] || self.type == 'RegularExpression'` (the enum already
/// refuses other types, and blocks this rule).
fn path_type_known(path: &Value) -> Result<bool, String> {
    Ok(literal_path(path) || text(path, "type") == "RegularExpression")
}

/// `(self.type in ['Exact','PathPrefix']) ? self.value.matches(r"""^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$""") : true`
fn path_characters_valid(path: &Value) -> Result<bool, String> {
    Ok(!literal_path(path) || patterns::path_characters(text(path, "value")))
}

pub(crate) static PATH_MATCH: &[Rule] = &[
    rule(
        "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
        path_starts_with_slash,
    ),
    rule("must not contain '//' when type one of ['Exact', 'PathPrefix']", path_has_no_double_slash),
    rule("must not contain '/./' when type one of ['Exact', 'PathPrefix']", path_has_no_dot_segment),
    rule("must not contain '/../' when type one of ['Exact', 'PathPrefix']", path_has_no_dot_dot_segment),
    rule("must not contain '%2f' when type one of ['Exact', 'PathPrefix']", path_has_no_lowercase_encoded_slash),
    rule("must not contain '%2F' when type one of ['Exact', 'PathPrefix']", path_has_no_uppercase_encoded_slash),
    rule("must not contain '#' when type one of ['Exact', 'PathPrefix']", path_has_no_fragment),
    rule("must not end with '/..' when type one of ['Exact', 'PathPrefix']", path_does_not_end_with_dot_dot),
    rule("must not end with '/.' when type one of ['Exact', 'PathPrefix']", path_does_not_end_with_dot),
    rule("type must be one of ['Exact', 'PathPrefix', 'RegularExpression']", path_type_known),
    rule(
        "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']",
        path_characters_valid,
    ),
];

// ------------------------------------------------------------------------------------------------
// HTTPRoute filters (`spec.rules[].filters` and `spec.rules[].backendRefs[].filters`)

fn count_type(filters: &Value, kind: &str) -> usize {
    items(filters).iter().filter(|f| text(f, "type") == kind).count()
}

/// `!(self.exists(f, f.type == 'RequestRedirect') && self.exists(f, f.type == 'URLRewrite'))`
fn redirect_not_with_rewrite(filters: &Value) -> Result<bool, String> {
    Ok(!(count_type(filters, "RequestRedirect") > 0 && count_type(filters, "URLRewrite") > 0))
}

/// `self.filter(f, f.type == 'CORS').size() <= 1`
fn cors_not_repeated(filters: &Value) -> Result<bool, String> {
    Ok(count_type(filters, "CORS") <= 1)
}

/// `self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1`
fn request_header_modifier_not_repeated(filters: &Value) -> Result<bool, String> {
    Ok(count_type(filters, "RequestHeaderModifier") <= 1)
}

/// `self.filter(f, f.type == 'ResponseHeaderModifier').size() <= 1`
fn response_header_modifier_not_repeated(filters: &Value) -> Result<bool, String> {
    Ok(count_type(filters, "ResponseHeaderModifier") <= 1)
}

/// `self.filter(f, f.type == 'RequestRedirect').size() <= 1`
fn request_redirect_not_repeated(filters: &Value) -> Result<bool, String> {
    Ok(count_type(filters, "RequestRedirect") <= 1)
}

/// `self.filter(f, f.type == 'URLRewrite').size() <= 1`
fn url_rewrite_not_repeated(filters: &Value) -> Result<bool, String> {
    Ok(count_type(filters, "URLRewrite") <= 1)
}

pub(crate) static FILTERS: &[Rule] = &[
    rule(
        "May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
        redirect_not_with_rewrite,
    ),
    rule("CORS filter cannot be repeated", cors_not_repeated),
    rule("RequestHeaderModifier filter cannot be repeated", request_header_modifier_not_repeated),
    rule("ResponseHeaderModifier filter cannot be repeated", response_header_modifier_not_repeated),
    rule("RequestRedirect filter cannot be repeated", request_redirect_not_repeated),
    rule("URLRewrite filter cannot be repeated", url_rewrite_not_repeated),
];

/// `!(has(self.<field>) && self.type != '<type>')` and `!(!has(self.<field>) && self.type == '<type>')`,
/// one pair per filter type: a function for each, as CEL has one rule for each.
macro_rules! filter_field_rules {
    ($($nil:ident, $specified:ident, $field:literal, $kind:literal;)*) => {
        $(
            #[doc = concat!("`!(has(self.", $field, ") && self.type != '", $kind, "')`")]
            fn $nil(filter: &Value) -> Result<bool, String> {
                Ok(!(has(filter, $field) && text(filter, "type") != $kind))
            }

            #[doc = concat!("`!(!has(self.", $field, ") && self.type == '", $kind, "')`")]
            fn $specified(filter: &Value) -> Result<bool, String> {
                Ok(!(!has(filter, $field) && text(filter, "type") == $kind))
            }
        )*
    };
}

filter_field_rules! {
    cors_only_for_cors, cors_given_for_cors, "cors", "CORS";
    request_header_modifier_only_for_its_type, request_header_modifier_given_for_its_type, "requestHeaderModifier", "RequestHeaderModifier";
    response_header_modifier_only_for_its_type, response_header_modifier_given_for_its_type, "responseHeaderModifier", "ResponseHeaderModifier";
    request_mirror_only_for_its_type, request_mirror_given_for_its_type, "requestMirror", "RequestMirror";
    request_redirect_only_for_its_type, request_redirect_given_for_its_type, "requestRedirect", "RequestRedirect";
    url_rewrite_only_for_its_type, url_rewrite_given_for_its_type, "urlRewrite", "URLRewrite";
    extension_ref_only_for_its_type, extension_ref_given_for_its_type, "extensionRef", "ExtensionRef";
}

pub(crate) static FILTER: &[Rule] = &[
    rule("filter.cors must be nil if the filter.type is not CORS", cors_only_for_cors),
    rule("filter.cors must be specified for CORS filter.type", cors_given_for_cors),
    rule(
        "filter.requestHeaderModifier must be nil if the filter.type is not RequestHeaderModifier",
        request_header_modifier_only_for_its_type,
    ),
    rule(
        "filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type",
        request_header_modifier_given_for_its_type,
    ),
    rule(
        "filter.responseHeaderModifier must be nil if the filter.type is not ResponseHeaderModifier",
        response_header_modifier_only_for_its_type,
    ),
    rule(
        "filter.responseHeaderModifier must be specified for ResponseHeaderModifier filter.type",
        response_header_modifier_given_for_its_type,
    ),
    rule("filter.requestMirror must be nil if the filter.type is not RequestMirror", request_mirror_only_for_its_type),
    rule("filter.requestMirror must be specified for RequestMirror filter.type", request_mirror_given_for_its_type),
    rule(
        "filter.requestRedirect must be nil if the filter.type is not RequestRedirect",
        request_redirect_only_for_its_type,
    ),
    rule(
        "filter.requestRedirect must be specified for RequestRedirect filter.type",
        request_redirect_given_for_its_type,
    ),
    rule("filter.urlRewrite must be nil if the filter.type is not URLRewrite", url_rewrite_only_for_its_type),
    rule("filter.urlRewrite must be specified for URLRewrite filter.type", url_rewrite_given_for_its_type),
    rule("filter.extensionRef must be nil if the filter.type is not ExtensionRef", extension_ref_only_for_its_type),
    rule("filter.extensionRef must be specified for ExtensionRef filter.type", extension_ref_given_for_its_type),
];

// ------------------------------------------------------------------------------------------------
// GRPCRoute: its filters (a subset of HTTPRoute's, the same rules) and method matches

pub(crate) static GRPC_FILTERS: &[Rule] = &[
    rule("RequestHeaderModifier filter cannot be repeated", request_header_modifier_not_repeated),
    rule("ResponseHeaderModifier filter cannot be repeated", response_header_modifier_not_repeated),
];

pub(crate) static GRPC_FILTER: &[Rule] = &[
    rule(
        "filter.requestHeaderModifier must be nil if the filter.type is not RequestHeaderModifier",
        request_header_modifier_only_for_its_type,
    ),
    rule(
        "filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type",
        request_header_modifier_given_for_its_type,
    ),
    rule(
        "filter.responseHeaderModifier must be nil if the filter.type is not ResponseHeaderModifier",
        response_header_modifier_only_for_its_type,
    ),
    rule(
        "filter.responseHeaderModifier must be specified for ResponseHeaderModifier filter.type",
        response_header_modifier_given_for_its_type,
    ),
    rule("filter.requestMirror must be nil if the filter.type is not RequestMirror", request_mirror_only_for_its_type),
    rule("filter.requestMirror must be specified for RequestMirror filter.type", request_mirror_given_for_its_type),
    rule("filter.extensionRef must be nil if the filter.type is not ExtensionRef", extension_ref_only_for_its_type),
    rule("filter.extensionRef must be specified for ExtensionRef filter.type", extension_ref_given_for_its_type),
];

/// `has(self.type) ? has(self.service) || has(self.method) : true`
fn service_or_method(m: &Value) -> Result<bool, String> {
    Ok(!has(m, "type") || has(m, "service") || has(m, "method"))
}

/// Whether the match is `Exact` (`!has(self.type) || self.type == 'Exact'`) and has `field`.
fn exact_with(m: &Value, field: &str) -> bool {
    (!has(m, "type") || text(m, "type") == "Exact") && has(m, field)
}

/// `... ? self.service.matches(r"""^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$""") : true`: dot-separated
/// identifiers, a leading dot allowed, any case.
fn service_characters(m: &Value) -> Result<bool, String> {
    if !exact_with(m, "service") {
        return Ok(true);
    }
    let service = text(m, "service");
    let service = service.strip_prefix('.').unwrap_or(service);
    Ok(service.split('.').all(|part| identifier(part, true)))
}

/// `... ? self.method.matches(r"""^[A-Za-z_][A-Za-z_0-9]*$""") : true`
fn method_characters(m: &Value) -> Result<bool, String> {
    Ok(!exact_with(m, "method") || identifier(text(m, "method"), true))
}

/// `[a-z_][a-z_0-9]*`, any case when `ignore_case` (both rules accept upper case).
fn identifier(part: &str, ignore_case: bool) -> bool {
    let letter = |c: u8| c == b'_' || c.is_ascii_lowercase() || (ignore_case && c.is_ascii_uppercase());
    let mut bytes = part.bytes();
    bytes.next().is_some_and(letter) && bytes.all(|c| letter(c) || c.is_ascii_digit())
}

pub(crate) static GRPC_METHOD_MATCH: &[Rule] = &[
    rule("One or both of 'service' or 'method' must be specified", service_or_method),
    rule(
        "service must only contain valid characters (matching ^(?i)\\.?[a-z_][a-z_0-9]*(\\.[a-z_][a-z_0-9]*)*$)",
        service_characters,
    ),
    rule("method must only contain valid characters (matching ^[A-Za-z_][A-Za-z_0-9]*$)", method_characters),
];

/// `!('*' in self && self.size() > 1)` (CORS allowHeaders, allowMethods, allowOrigins).
fn wildcard_alone(list: &Value) -> Result<bool, String> {
    let list = items(list);
    Ok(!(list.iter().any(|v| v.as_str() == Some("*")) && list.len() > 1))
}

pub(crate) static CORS_ALLOW_HEADERS: &[Rule] =
    &[rule("AllowHeaders cannot contain '*' alongside other methods", wildcard_alone)];
pub(crate) static CORS_ALLOW_METHODS: &[Rule] =
    &[rule("AllowMethods cannot contain '*' alongside other methods", wildcard_alone)];
pub(crate) static CORS_ALLOW_ORIGINS: &[Rule] =
    &[rule("AllowOrigins cannot contain '*' alongside other origins", wildcard_alone)];

/// `!(has(self.percent) && has(self.fraction))`
fn mirror_percent_or_fraction(mirror: &Value) -> Result<bool, String> {
    Ok(!(has(mirror, "percent") && has(mirror, "fraction")))
}

pub(crate) static REQUEST_MIRROR: &[Rule] =
    &[rule("Only one of percent or fraction may be specified in HTTPRequestMirrorFilter", mirror_percent_or_fraction)];

/// `self.numerator <= self.denominator`
fn numerator_within_denominator(fraction: &Value) -> Result<bool, String> {
    let number = |key| fraction.get(key).and_then(Value::as_f64).unwrap_or(0.0);
    Ok(number("numerator") <= number("denominator"))
}

pub(crate) static MIRROR_FRACTION: &[Rule] =
    &[rule("numerator must be less than or equal to denominator", numerator_within_denominator)];

/// `self.type == 'ReplaceFullPath' ? has(self.replaceFullPath) : true`
fn full_path_given_for_its_type(path: &Value) -> Result<bool, String> {
    Ok(text(path, "type") != "ReplaceFullPath" || has(path, "replaceFullPath"))
}

/// `has(self.replaceFullPath) ? self.type == 'ReplaceFullPath' : true`
fn full_path_only_for_its_type(path: &Value) -> Result<bool, String> {
    Ok(!has(path, "replaceFullPath") || text(path, "type") == "ReplaceFullPath")
}

/// `self.type == 'ReplacePrefixMatch' ? has(self.replacePrefixMatch) : true`
fn prefix_match_given_for_its_type(path: &Value) -> Result<bool, String> {
    Ok(text(path, "type") != "ReplacePrefixMatch" || has(path, "replacePrefixMatch"))
}

/// `has(self.replacePrefixMatch) ? self.type == 'ReplacePrefixMatch' : true`
fn prefix_match_only_for_its_type(path: &Value) -> Result<bool, String> {
    Ok(!has(path, "replacePrefixMatch") || text(path, "type") == "ReplacePrefixMatch")
}

pub(crate) static PATH_MODIFIER: &[Rule] = &[
    rule("replaceFullPath must be specified when type is set to 'ReplaceFullPath'", full_path_given_for_its_type),
    rule("type must be 'ReplaceFullPath' when replaceFullPath is set", full_path_only_for_its_type),
    rule(
        "replacePrefixMatch must be specified when type is set to 'ReplacePrefixMatch'",
        prefix_match_given_for_its_type,
    ),
    rule("type must be 'ReplacePrefixMatch' when replacePrefixMatch is set", prefix_match_only_for_its_type),
];

// ------------------------------------------------------------------------------------------------
// Gateway

/// `self.all(a1, a1.type == '<type>' && has(a1.value) ? self.exists_one(a2, a2.type == a1.type &&
/// has(a2.value) && a2.value == a1.value) : true)`
fn address_values_unique(addresses: &Value, kind: &str) -> bool {
    let addresses = items(addresses);
    addresses.iter().filter(|a1| text(a1, "type") == kind && has(a1, "value")).all(|a1| {
        let same = |a2: &&Value| text(a2, "type") == kind && has(a2, "value") && text(a2, "value") == text(a1, "value");
        addresses.iter().filter(same).count() == 1
    })
}

fn ip_address_values_unique(addresses: &Value) -> Result<bool, String> {
    Ok(address_values_unique(addresses, "IPAddress"))
}

fn hostname_values_unique(addresses: &Value) -> Result<bool, String> {
    Ok(address_values_unique(addresses, "Hostname"))
}

pub(crate) static GATEWAY_ADDRESSES: &[Rule] = &[
    rule("IPAddress values must be unique", ip_address_values_unique),
    rule("Hostname values must be unique", hostname_values_unique),
];

/// `self.type == 'Hostname' ? (!has(self.value) || self.value.matches(r"""^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$""")): true`
fn hostname_address_valid(address: &Value) -> Result<bool, String> {
    Ok(text(address, "type") != "Hostname"
        || !has(address, "value")
        || patterns::wildcard_hostname(text(address, "value")))
}

pub(crate) static GATEWAY_ADDRESS: &[Rule] = &[rule(
    r"Hostname value must be empty or contain only valid characters (matching ^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)",
    hostname_address_valid,
)];

/// `self.all(key, key.matches(r"""^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$"""))`
fn keys_qualified(map: &Value) -> Result<bool, String> {
    Ok(map.as_object().is_none_or(|m| m.keys().all(|k| patterns::qualified_key(k))))
}

/// `self.all(key, key.split("/")[0].size() < 253)`
fn key_prefixes_short(map: &Value) -> Result<bool, String> {
    Ok(map.as_object().is_none_or(|m| m.keys().all(|k| k.split('/').next().unwrap_or("").chars().count() < 253)))
}

pub(crate) static INFRASTRUCTURE_ANNOTATIONS: &[Rule] = &[
    rule(
        "Annotation keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.",
        keys_qualified,
    ),
    rule(
        "If specified, the annotation key's prefix must be a DNS subdomain not longer than 253 characters in total.",
        key_prefixes_short,
    ),
];

pub(crate) static INFRASTRUCTURE_LABELS: &[Rule] = &[
    rule(
        "Label keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.",
        keys_qualified,
    ),
    rule(
        "If specified, the label key's prefix must be a DNS subdomain not longer than 253 characters in total.",
        key_prefixes_short,
    ),
];

/// `self.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)`
fn no_tls_for_plain_protocols(listeners: &Value) -> Result<bool, String> {
    Ok(items(listeners).iter().all(|l| !matches!(text(l, "protocol"), "HTTP" | "TCP" | "UDP") || !has(l, "tls")))
}

/// `self.all(l, (l.protocol == 'HTTPS' && has(l.tls)) ? (l.tls.mode == '' || l.tls.mode == 'Terminate') : true)`
fn https_terminates_tls(listeners: &Value) -> Result<bool, String> {
    Ok(items(listeners).iter().all(|l| match l.get("tls") {
        Some(tls) if text(l, "protocol") == "HTTPS" && !tls.is_null() => matches!(text(tls, "mode"), "" | "Terminate"),
        _ => true,
    }))
}

/// `self.all(l, (l.protocol == 'TLS' ? has(l.tls) && has(l.tls.mode) && l.tls.mode != '' : true))`
fn tls_protocol_sets_mode(listeners: &Value) -> Result<bool, String> {
    Ok(items(listeners).iter().all(|l| {
        text(l, "protocol") != "TLS"
            || l.get("tls").is_some_and(|tls| has(tls, "mode") && !text(tls, "mode").is_empty())
    }))
}

/// `self.all(l, l.protocol in ['TCP', 'UDP'] ? (!has(l.hostname) || l.hostname == '') : true)`
fn no_hostname_for_tcp_udp(listeners: &Value) -> Result<bool, String> {
    Ok(items(listeners).iter().all(|l| !matches!(text(l, "protocol"), "TCP" | "UDP") || empty(l, "hostname")))
}

/// `self.all(l1, self.exists_one(l2, l1.name == l2.name))`
fn listener_names_unique(listeners: &Value) -> Result<bool, String> {
    let listeners = items(listeners);
    Ok(listeners.iter().all(|l1| listeners.iter().filter(|l2| text(l1, "name") == text(l2, "name")).count() == 1))
}

/// `self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol &&
/// (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))`
fn listener_port_protocol_hostname_unique(listeners: &Value) -> Result<bool, String> {
    let listeners = items(listeners);
    let same = |l1: &Value, l2: &Value| {
        l1.get("port") == l2.get("port")
            && text(l1, "protocol") == text(l2, "protocol")
            && match (has(l1, "hostname"), has(l2, "hostname")) {
                (true, true) => text(l1, "hostname") == text(l2, "hostname"),
                (h1, h2) => !h1 && !h2,
            }
    };
    Ok(listeners.iter().all(|l1| listeners.iter().filter(|l2| same(l1, l2)).count() == 1))
}

pub(crate) static GATEWAY_LISTENERS: &[Rule] = &[
    rule("tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']", no_tls_for_plain_protocols),
    rule("tls mode must be Terminate for protocol HTTPS", https_terminates_tls),
    rule("tls mode must be set for protocol TLS", tls_protocol_sets_mode),
    rule("hostname must not be specified for protocols ['TCP', 'UDP']", no_hostname_for_tcp_udp),
    rule("Listener name must be unique within the Gateway", listener_names_unique),
    rule(
        "Combination of port, protocol and hostname must be unique for each listener",
        listener_port_protocol_hostname_unique,
    ),
];

/// `self.mode == 'Terminate' ? size(self.certificateRefs) > 0 || size(self.options) > 0 : true`.
/// Reading an absent `certificateRefs` (or `options`) is a CEL error unless the other side of
/// `||` is true: `no such key: certificateRefs`.
fn terminate_has_certificates_or_options(tls: &Value) -> Result<bool, String> {
    if text(tls, "mode") != "Terminate" {
        return Ok(true);
    }
    let size = |key: &str| match tls.get(key) {
        Some(Value::Array(a)) => Ok(a.len()),
        Some(Value::Object(o)) => Ok(o.len()),
        _ => Err(alloc::format!("no such key: {key}")),
    };
    match (size("certificateRefs"), size("options")) {
        (Ok(n), _) if n > 0 => Ok(true),
        (_, Ok(n)) if n > 0 => Ok(true),
        (Err(e), _) | (_, Err(e)) => Err(e),
        _ => Ok(false),
    }
}

pub(crate) static LISTENER_TLS: &[Rule] = &[rule(
    "certificateRefs or options must be specified when mode is Terminate",
    terminate_has_certificates_or_options,
)];

/// `self.all(t1, self.exists_one(t2, t1.port == t2.port))`
fn per_port_unique(per_port: &Value) -> Result<bool, String> {
    let per_port = items(per_port);
    Ok(per_port.iter().all(|t1| per_port.iter().filter(|t2| t1.get("port") == t2.get("port")).count() == 1))
}

pub(crate) static FRONTEND_PER_PORT: &[Rule] =
    &[rule("Port for TLS configuration must be unique within the Gateway", per_port_unique)];

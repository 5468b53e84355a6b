//! The engines a build may leave out (cargo features), and which of them an input or its options
//! need. A home built without one (the npm package's first module) asks [`Engine::missing`] and
//! hands the work to a build that has it (the package's second module, loaded on demand).

use core::fmt;

use crate::input::Input;
use crate::options::CompileOptions;

/// An optional engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// The ingress-nginx profile (the `nginx` feature).
    IngressNginx,
    /// The Gateway API: routing, validation and status of its objects, and `migrate` (the
    /// `gateway` feature).
    GatewayApi,
}

impl Engine {
    /// Its name: `ingress-nginx` or `gateway-api`.
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::IngressNginx => "ingress-nginx",
            Engine::GatewayApi => "gateway-api",
        }
    }

    /// The cargo feature that builds it.
    pub fn feature(self) -> &'static str {
        match self {
            Engine::IngressNginx => "nginx",
            Engine::GatewayApi => "gateway",
        }
    }

    /// Whether this build has it.
    pub const fn built(self) -> bool {
        match self {
            Engine::IngressNginx => cfg!(feature = "nginx"),
            Engine::GatewayApi => cfg!(feature = "gateway"),
        }
    }

    /// The engine this build lacks that `input` compiled with `options` needs: the Gateway API
    /// when the input holds Gateway API objects (they are routed, validated and given status only
    /// by it) or the options name a Gateway. The ingress-nginx profile is refused where the
    /// options are read ([`Engine::in_message`] recognises that error).
    pub fn missing(input: &Input, options: &CompileOptions) -> Option<Engine> {
        let gateway = !input.gateway_api.is_empty() || options.gateway.is_some();
        (!Engine::GatewayApi.built() && gateway).then_some(Engine::GatewayApi)
    }

    /// The engine whose absence `message` (an error's text, from options or a tests file this
    /// build could not read) reports, if any.
    pub fn in_message(message: &str) -> Option<Engine> {
        [Engine::IngressNginx, Engine::GatewayApi].into_iter().find(|e| !e.built() && message.contains(e.lacking()))
    }

    /// The words every error about this engine's absence holds.
    fn lacking(self) -> &'static str {
        match self {
            Engine::IngressNginx => "lacks the `nginx` feature",
            Engine::GatewayApi => "lacks the `gateway` feature",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why this build cannot do what needs `engine`: `this build of ingress-router lacks the `nginx`
/// feature that the ingress-nginx profile needs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missing(pub Engine);

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.0 {
            Engine::IngressNginx => "the ingress-nginx profile needs",
            Engine::GatewayApi => "Gateway API objects and the `gateway` option need",
        };
        write!(f, "this build of ingress-router {} that {what}", self.0.lacking())
    }
}

impl core::error::Error for Missing {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// Each message of an absent engine is recognised as that engine's, and nothing else is.
    #[test]
    fn messages_name_their_engine() {
        for engine in [Engine::IngressNginx, Engine::GatewayApi] {
            let text = Missing(engine).to_string();
            assert!(text.starts_with("this build of ingress-router lacks the `"), "{text}");
            assert_eq!(Engine::in_message(&text), (!engine.built()).then_some(engine), "{text}");
        }
        assert_eq!(Engine::in_message("unknown profile \"nginx\": expected spec"), None);
    }

    #[test]
    fn built_follows_the_features() {
        assert_eq!(Engine::IngressNginx.built(), cfg!(feature = "nginx"));
        assert_eq!(Engine::GatewayApi.built(), cfg!(feature = "gateway"));
    }
}

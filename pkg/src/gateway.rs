//! The Gateway API's own calls (status, migration); routing goes through the one `Router`. In the
//! package's first module (built without the `engines` feature) there is no Gateway API: every
//! call that would need it fails with the `engine` kind, and the JavaScript layer runs it again in
//! the second module.

use ingress_router::input::Input;
use ingress_router::{CompileOptions, Engine, Missing};

use crate::error::Failure;

/// The failure of a call that needs `engine`, which this module lacks.
pub fn missing(engine: Engine) -> Failure {
    Failure::new("engine", format!("{}: {}", crate::engine::SOURCE, Missing(engine)))
}

/// `Err` (the `engine` kind) when `input` compiled with `options` needs an engine this module lacks.
pub fn check(input: &Input, options: &CompileOptions) -> Result<(), Failure> {
    Engine::missing(input, options).map_or(Ok(()), |engine| Err(missing(engine)))
}

#[cfg(feature = "engines")]
mod routes {
    use ingress_router::Profile;
    use ingress_router::gateway::status::StatusOptions;
    use ingress_router::gateway::{self, GatewayOptions};
    use ingress_router::migrate::MigrationReport;
    use ingress_router::model::Object;

    use super::*;
    use crate::to_js;
    use wasm_bindgen::JsValue;

    /// The status a Gateway API controller writes (`status --json`'s Gateway API objects).
    pub fn status(input: &Input, options: &StatusOptions) -> Result<JsValue, Failure> {
        to_js(&gateway::status::gateway_status(&values(input), options))
    }

    /// `diff --to gateway-api`: the Ingresses of `input` against its Gateway API objects, with
    /// `tests` (the agreed answers as a tests file) and the number of `differences`.
    pub fn migrate(input: &Input, options: &CompileOptions, from: Profile) -> Result<JsValue, Failure> {
        let objects: Vec<Object> = input.objects.iter().map(|o| o.object.clone()).collect();
        let mut ingress_options = options.clone();
        ingress_options.gateway = None;
        let report =
            ingress_router::migrate(&objects, &values(input), &ingress_options, from, &GatewayOptions::from(options));
        #[derive(serde::Serialize)]
        struct Migration<'a> {
            #[serde(flatten)]
            report: &'a MigrationReport,
            differences: usize,
            tests: String,
        }
        to_js(&Migration { report: &report, differences: report.differences(), tests: report.tests_file() })
    }

    /// The Gateway API objects of `input` as values.
    fn values(input: &Input) -> Vec<serde_json::Value> {
        input.gateway_api.iter().map(|g| g.value.clone()).collect()
    }
}

#[cfg(feature = "engines")]
pub use routes::*;

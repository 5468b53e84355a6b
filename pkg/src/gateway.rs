//! The Gateway API inside a [`Router`](crate::Router): the router its manifests route through,
//! and the Gateway API's own calls. In the package's first module (built without the `engines`
//! feature) there is none: every call that would need one fails with the `engine` kind, and the
//! JavaScript layer runs it again in the second module.

use ingress_router::input::Input;
use ingress_router::{CompileOptions, Engine, Missing, RequestSpec};
use wasm_bindgen::JsValue;

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
    use ingress_router::gateway::{self, GatewayOptions, GatewayRouter, Objects};
    use ingress_router::migrate::MigrationReport;
    use ingress_router::model::Object;
    use ingress_router::tests_file::{self, TestsFile};

    use super::*;
    use crate::{engine, to_js};

    /// The Gateway API router of a `Router`.
    pub struct GatewayRoutes(GatewayRouter);

    impl GatewayRoutes {
        /// The router when `input` routes through its Gateway API objects (the options'
        /// `gateway`, or a Gateway and no Ingress), as every home decides; an error when the
        /// Gateway cannot be chosen.
        pub fn for_input(input: &Input, options: &CompileOptions) -> Result<Option<Self>, Failure> {
            let values = values(input);
            let objects: Vec<Object> = input.objects.iter().map(|o| o.object.clone()).collect();
            if !gateway::wanted(options.gateway.as_deref(), &values, &objects) {
                return Ok(None);
            }
            let router = gateway::compile(&Objects::from_input(&values, &objects), &GatewayOptions::from(options));
            match router.no_gateway() {
                None => Ok(Some(GatewayRoutes(router))),
                Some(why) => Err(Failure::new("options", format!("{}: {why}", engine::SOURCE))),
            }
        }

        /// The decision for `spec` (its view holds what the backend receives: never shared).
        pub fn route(&self, spec: &RequestSpec) -> Result<JsValue, Failure> {
            let view = spec.with_gateway(|r| self.0.route(r).view(r)).map_err(engine::request_failure)?;
            let value = to_js(&view)?;
            crate::deep_freeze(&value);
            Ok(value)
        }

        pub fn explain(&self, spec: &RequestSpec) -> Result<JsValue, Failure> {
            to_js(&spec.with_gateway(|r| self.0.explain(r)).map_err(engine::request_failure)?)
        }

        pub fn table(&self) -> Result<JsValue, Failure> {
            to_js(&self.0.table())
        }

        /// A tests file pinning the answers to `requests`, for the chosen Gateway.
        pub fn write_tests(
            &self,
            requests: Vec<(Option<String>, RequestSpec)>,
            comment: &str,
        ) -> Result<String, Failure> {
            let file = tests_file::pin_gateway(&self.0, &self.0.gateway_name(), requests)?;
            Ok(tests_file::write(&file, comment))
        }

        pub fn run_tests(&self, file: &TestsFile) -> Result<JsValue, Failure> {
            to_js(&tests_file::run_gateway(&self.0, file))
        }
    }

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

#[cfg(not(feature = "engines"))]
mod routes {
    use ingress_router::tests_file::TestsFile;

    use super::*;

    /// None in this module: the Gateway API is in the package's second module.
    pub enum GatewayRoutes {}

    impl GatewayRoutes {
        /// `None`, or the `engine` failure when `input` with `options` needs the Gateway API.
        pub fn for_input(input: &Input, options: &CompileOptions) -> Result<Option<Self>, Failure> {
            check(input, options).map(|()| None)
        }

        pub fn route(&self, _: &RequestSpec) -> Result<JsValue, Failure> {
            match *self {}
        }

        pub fn explain(&self, _: &RequestSpec) -> Result<JsValue, Failure> {
            match *self {}
        }

        pub fn table(&self) -> Result<JsValue, Failure> {
            match *self {}
        }

        pub fn write_tests(&self, _: Vec<(Option<String>, RequestSpec)>, _: &str) -> Result<String, Failure> {
            match *self {}
        }

        pub fn run_tests(&self, _: &TestsFile) -> Result<JsValue, Failure> {
            match *self {}
        }
    }
}

pub use routes::*;

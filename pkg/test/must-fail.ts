// Must NOT type-check (test-pkg checks that tsc refuses it): "regex" is no implementationSpecific mode.
import { compile } from "ingress-router";
compile("", { implementationSpecific: "regex" });

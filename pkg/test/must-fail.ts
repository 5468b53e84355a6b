// Must NOT type-check (test-pkg checks that tsc refuses it): "regex" is no implementationSpecific mode (TS2769: no overload of compile() takes it).
import { compile } from "ingress-router";
compile("", { implementationSpecific: "regex" });

// CommonJS cannot load this package synchronously in every Node version; say how to load it.
throw new Error(
  'ingress-router is an ES module: use `import { compile } from "ingress-router"`, ' +
    'or from CommonJS `const { compile } = await import("ingress-router")`.',
);

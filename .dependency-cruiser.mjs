// The layers of Order Ops, checked by `npm run lint` (dependency-cruiser). Each imports only below:
//
//   app/, components/      pages, route handlers, server actions, client views
//   lib/cli, lib/process   the processes (CLI, web listener, supervisor) and the worker's loops
//     lib/jobs, lib/seed
//   lib/api, lib/read      the integration API's helpers; read models (one JSON snapshot per page)
//   lib/<domain>/          stores, players, cases, settings, auth, refunds, approvals, audit, ...,
//                          orders at the bottom: every other domain builds on it
//   lib/outbox, lib/http,  the outbox's writer and vocabulary, response headers, the database,
//     lib/db, lib/*.ts     kernel helpers (errors, log, problems, format, csv, ...)
//
// No two lib/ folders may import each other, even round a longer loop: the pair would be one folder
// in disguise, each change to one dragging the other along. A pure vocabulary (a list of states,
// a topic name) lives in the lower folder of such a pair, where both can see it; a module that
// composes both moves up (lib/read/, lib/cases/refund-event.ts).
//
// Tests (*.test.ts) and their support (lib/test/, lib/cases/fixtures.ts) are left out: they sit
// above everything and may drive route handlers, seeds and any domain at once.

/** @type {import("dependency-cruiser").IConfiguration} */
const config = {
  forbidden: [
    {
      name: "no-cycle-between-lib-folders",
      comment:
        "Two lib/ folders import each other (possibly round a longer loop). Move the shared piece down " +
        "(a vocabulary or pure helper into the lower folder) or the composing piece up (lib/read/).",
      severity: "error",
      // Folder scope sees every import, `import type` included: a type still ties the two folders'
      // vocabularies together, and the tool cannot tell types apart at this scope. Sub-folders
      // (lib/orders/queries) count as their own folder; a loop inside one domain is not reported.
      scope: "folder",
      from: { path: "^lib/([^/]+)" },
      to: { path: "^lib/", pathNot: "^lib/$1(/|$)", circular: true },
    },
    {
      name: "no-module-cycle",
      comment: "Modules import each other at run time: one of them sees the other half-initialised.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "no-type-cycle-across-folders",
      comment:
        "Modules in different lib/ folders import each other, if only for types (lib/problems.ts <-> " +
        "lib/auth/permissions.ts <-> lib/orders/machine.ts was one). Give the vocabulary a leaf module.",
      severity: "error",
      from: { path: "^(lib/[^/]+)/" },
      to: { circular: true, via: { pathNot: "^$1/" } },
    },
    {
      name: "read-models-only-from-above",
      comment: "lib/read composes the domains; a domain that imports it makes the layers a loop.",
      severity: "error",
      from: { path: "^lib/", pathNot: "^lib/read/" },
      to: { path: "^lib/read/" },
    },
    {
      name: "lib-never-imports-ui",
      comment: "lib/ is below app/ and components/: move the shared piece into lib/.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "ui-takes-read-models-as-types",
      comment:
        "A page's view gets its read model as JSON from a route handler (app/api/console/...), so it " +
        "imports lib/read only as types (`import type`). lib/read/wire.ts is the encoding both ends use.",
      severity: "error",
      from: { path: "^(app|components)/", pathNot: "^app/api/" },
      to: { path: "^lib/read/", pathNot: "^lib/read/wire\\.ts$", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^lib/generated/", "\\.test\\.tsx?$", "^lib/test/", "^lib/cases/fixtures\\.ts$"] },
    // Keep `import type` in the graph, marked "type-only", so the rules above can tell it apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};

export default config;

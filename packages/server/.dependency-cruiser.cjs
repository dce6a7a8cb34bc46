/**
 * The import boundaries of @engram/server (docs/architecture.md), checked by `npm run lint:deps`
 * in CI. Layers, top to bottom: http/ and cli.ts → operations/ → learn/ recall/ brief/ meter/ jobs/
 * read/ model/ → store/ → text/ (a leaf). A rule here fails the build; an exception is listed by
 * file, with why, so that the rule still blocks new ones.
 */

const SERVER = '^src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules of the server import each other in one direction only.',
      from: { path: SERVER },
      to: { circular: true },
    },
    {
      name: 'store-is-below-the-domain',
      severity: 'error',
      comment:
        'store/ writes and reads rows; it never calls the learner, recall, metering, operations or the HTTP layer. ' +
        'What a row holds is worked out before the store is called (operations/index-document.ts).',
      from: { path: `${SERVER}store/` },
      to: { path: `${SERVER}(learn|recall|meter|operations|http|brief|jobs|model|read)/` },
    },
    {
      name: 'text-is-a-leaf',
      severity: 'error',
      comment: 'text/ (segmentation, tokens, calendar words, date wording) imports nothing else of the server.',
      from: { path: `${SERVER}text/` },
      to: { path: SERVER, pathNot: `${SERVER}text/` },
    },
    {
      name: 'files-below-learn',
      severity: 'error',
      comment: 'files/ (paths and diffs of written files) is read by learn/ and store/; it never imports the learner.',
      from: { path: `${SERVER}files/` },
      to: { path: `${SERVER}(learn|recall|operations|http)/` },
    },
    {
      name: 'http-only-above',
      severity: 'error',
      comment: 'Only the HTTP layer, the CLI and the process start import http/ (a domain error is mapped to HTTP there).',
      from: { path: SERVER, pathNot: [`${SERVER}http/`, `${SERVER}(cli|server|index)\\.ts$`] },
      to: { path: `${SERVER}http/` },
    },
    {
      name: 'operations-only-from-above',
      severity: 'error',
      comment: 'operations/ is called by routes, the CLI and workers; the layers below never call it.',
      from: {
        path: `${SERVER}(store|text|learn|recall|meter|read|model|files|brief|jobs)/`,
      },
      to: { path: `${SERVER}operations/` },
    },
    {
      name: 'sql-only-in-store',
      severity: 'error',
      comment:
        "kysely's sql (raw SQL) is written in store/ only (its repositories, and export and restore in store/transfer/); " +
        'type-only imports of kysely are fine anywhere.',
      from: { path: SERVER, pathNot: [`${SERVER}store/`, '\\.test\\.ts$'] },
      to: { path: 'node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};

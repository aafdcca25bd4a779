/**
 * Allowed import directions (`npm run lint:deps`, run in CI). The folder tree reads as the data
 * flow: a shared kernel that imports no side; the write side (indexer/, durable-objects/) never
 * imports the read side (worker/, web/); search reads the index only through the storage
 * contract and the tokenizer; and no module imports itself back through others.
 * Type-only imports count: a type cycle is still a cycle for the reader.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules must not depend on themselves through others; split the shared part out.",
      from: { path: "^(kernel|worker|indexer|durable-objects|web)/" },
      to: { circular: true },
    },
    {
      name: "kernel-imports-no-side",
      severity: "error",
      comment: "kernel/ is what every side shares; it imports only libraries and itself.",
      from: { path: "^kernel/" },
      to: { path: "^(worker|indexer|durable-objects|web|bin|scripts|evals|test)/" },
    },
    {
      name: "write-side-never-imports-read-side",
      severity: "error",
      comment: "indexer/ and durable-objects/ write the index; worker/ and web/ serve it.",
      from: { path: "^(indexer|durable-objects)/", pathNot: "\\.test\\.ts$" },
      to: { path: "^(worker|web)/" },
    },
    {
      name: "search-reads-only-the-storage-contract",
      severity: "error",
      comment: "worker/search/ may import from indexer/ only the storage contract, the tokenizer and the stemmer.",
      from: { path: "^worker/search/", pathNot: "\\.test\\.ts$" },
      to: { path: "^indexer/", pathNot: "^indexer/store/(contract|tokenize|stem)\\.ts$" },
    },
    {
      name: "search-engine-and-stages-never-import-readers",
      severity: "error",
      comment:
        "Only the readers know what kind of query a text is (issue 46): the engine and the ranking stages read the QueryPlan (worker/search/plan.ts), never a reader.",
      from: { path: "^worker/search/(engine|ranking)/", pathNot: "\\.test\\.ts$" },
      to: { path: "^worker/search/(readers/|query\\.ts$|searcher\\.ts$)" },
    },
    {
      name: "ranking-stages-never-import-the-engine",
      severity: "error",
      comment: "Stages declare the evidence they need; the engine (worker/search/engine/) gathers it and runs them, not the other way round.",
      from: { path: "^worker/search/ranking/" },
      to: { path: "^worker/search/engine/" },
    },
    {
      name: "production-code-never-imports-tests",
      severity: "error",
      from: { path: "^(kernel|worker|indexer|durable-objects|web)/", pathNot: "\\.test\\.ts$" },
      to: { path: "(\\.test\\.ts$|^test/)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};

/**
 * ESLint (flat config): `npm run lint`, run in CI. typescript-eslint's recommended rules with
 * type information where it finds real bugs (floating promises, misused promises); formatting
 * is Prettier's job (`npm run format:check`), so no stylistic rules here.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".codebase-copilot/", ".wrangler/", "evals/fixture-repo/", "**/*.mjs", "**/*.cjs", "**/*.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: { project: ["./tsconfig.json", "./tsconfig.node.json", "./tsconfig.web.json"], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Unhandled promises lose errors silently in a Worker; these catch real bugs.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      // `_name` marks a value deliberately unused (destructuring to drop a field).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // TypeScript checks these itself (noUndef is meaningless with types; Workers globals).
      "no-undef": "off",
      // ASCII-range classes such as [\x00-\x7f] are deliberate in the matchers and tokenizers.
      "no-control-regex": "off",
    },
  },
  {
    // Only the query readers know what kind of query a text is (issue #46): everything after them
    // reads the plan they write (worker/search/plan.ts). The gate's input keeps its field name.
    files: ["worker/**/*.ts", "web/**/*.ts"],
    ignores: ["worker/search/readers/**", "worker/search/gate.ts", "**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='isReport']",
          message: "Only worker/search/readers/ may ask whether a query is a report; read the field of the QueryPlan that follows from it.",
        },
      ],
    },
  },
  {
    // Tests and benchmark scripts drive real parts with loosely typed JSON bodies.
    files: ["**/*.test.ts", "test/**/*.ts", "scripts/**/*.ts", "evals/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      // node:test's test() returns a promise the runner itself awaits.
      "@typescript-eslint/no-floating-promises": [
        "error",
        { allowForKnownSafeCalls: [{ from: "package", package: "node:test", name: ["test", "describe", "it"] }] },
      ],
    },
  },
);

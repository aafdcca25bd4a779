/**
 * Content of the fixture git repository that test/git-server.ts builds (and that archive tests
 * zip up): a small multi-language repo plus one file for each filter that must skip it. The
 * git fixture also has a symlink `users-link.ts` (made by git-server.ts; zips carry none).
 */

/** The files of the fixture's `main` branch, path -> content. */
export const FIXTURE_FILES: Record<string, string | Uint8Array> = {
  "README.md": "# Fixture\n\nA tiny repository used by the ingestion tests.\n",
  ".gitignore": "ignored-dir/\n*.log\n",
  "src/users.ts": [
    'import { db } from "./db";',
    "",
    "/** Finds a user by id. */",
    "export function getUserById(id: string) {",
    "  return db.users.find((u) => u.id === id);",
    "}",
    "",
    "export function deleteUser(id: string) {",
    "  return db.users.remove(id);",
    "}",
    "",
  ].join("\n"),
  "src/db.ts": "export const db = { users: { find: (f: unknown) => f, remove: (id: string) => id } };\n",
  "lib/invoice.py": [
    "def compute_invoice_total(lines):",
    '    """Sum of line amounts including tax."""',
    "    return sum(l.amount * (1 + l.tax_rate) for l in lines)",
    "",
  ].join("\n"),
  Makefile: "build:\n\tnpm run build\n",
  "ignored-dir/secret-notes.ts": "export const ignoredByGitignore = true;\n",
  "debug.log": "a log file the .gitignore excludes\n",
  "assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 0, 0, 0, 0, 0, 0]),
  "data/huge.txt": "this line repeats to make the file larger than the 1 MiB cap\n".repeat(20_000),
  "config/deploy-key.txt": [
    "-----BEGIN OPENSSH PRIVATE KEY-----",
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
    "QyNTUxOQAAACDcBq0c8m0J7+5k3x1xwA3EXAMPLEKEYNOTREALxxxxxxxxxxxxxxxxxxxx",
    "-----END OPENSSH PRIVATE KEY-----",
    "",
  ].join("\n"),
  "node_modules/left-pad/index.js": "module.exports = function leftPad(s) { return s; };\n",
};

/** The `change` branch: `src/users.ts` gains a function, everything else as on `main`. */
export const CHANGED_USERS_TS = `${FIXTURE_FILES["src/users.ts"]}\nexport function renameUserAccount(id: string, name: string) {\n  return db.users.find((u) => u.id === id && name);\n}\n`;

/**
 * Fixture folders of the web e2e (test/e2e/web.e2e.ts): a small repo whose functions sit at
 * known lines (one far down a long file, so opening it must scroll), a test file, a README
 * and a Python file for the filters; and a many-file folder whose indexing lasts long enough
 * to watch the progress bar.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Line where `computeLongChecksum` starts in src/long.ts (it ends 6 lines later). */
export const LONG_FN_LINE = 201;

/** Writes the main fixture into `dir`. */
export function writeWidgets(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "test"), { recursive: true });
  mkdirSync(join(dir, "tools"), { recursive: true });
  writeFileSync(join(dir, "README.md"), "# Widgets\n\nParses widget configuration files.\n");
  writeFileSync(
    join(dir, "src", "widget.ts"),
    [
      "export interface WidgetConfig {",
      "  name: string;",
      "  size: number;",
      "}",
      "",
      "/** Parses a widget config; rejects markup such as <script>alert('xss')</script> in names. */",
      "export function parseWidgetConfig(text: string): WidgetConfig {",
      "  const raw = JSON.parse(text) as WidgetConfig;",
      '  if (/<[a-z]/i.test(raw.name)) throw new Error("markup in widget name");',
      "  return { name: raw.name, size: Number(raw.size) };",
      "}",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "src", "render.ts"),
    'import { parseWidgetConfig } from "./widget";\n\nexport function renderWidget(text: string): string {\n  const config = parseWidgetConfig(text);\n  return `[${config.name}]`;\n}\n',
  );
  const long: string[] = [];
  for (let i = 1; i < LONG_FN_LINE; i++) long.push(i % 10 === 1 ? `export const filler${i} = ${i};` : `// filler line ${i} of the long file`);
  long.push(
    "export function computeLongChecksum(values: number[]): number {",
    "  let sum = 0;",
    "  for (const v of values) sum = (sum * 31 + v) >>> 0;",
    "  return sum;",
    "}",
    "",
  );
  for (let i = 0; i < 120; i++) long.push(`// trailing line ${i}`);
  writeFileSync(join(dir, "src", "long.ts"), `${long.join("\n")}\n`);
  writeFileSync(
    join(dir, "test", "widget.test.ts"),
    'import { parseWidgetConfig } from "../src/widget";\n\nexport function testParseWidgetConfig(): void {\n  parseWidgetConfig(\'{"name":"a","size":1}\');\n}\n',
  );
  writeFileSync(join(dir, "tools", "widget_tool.py"), 'def parse_widget_config(text):\n    """Parse a widget config from text."""\n    return text.strip()\n');
}

/** Writes `files` generated TypeScript files into `dir` (for the progress bar). */
export function writeMany(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `pkg${i % 20}`);
    mkdirSync(sub, { recursive: true });
    const body = [`/** Module ${i}. */`];
    for (let f = 0; f < 6; f++)
      body.push(`export function handler${i}x${f}(input: string): string {`, `  return input.repeat(${f + 1}) + "${i}-${f}";`, "}", "");
    writeFileSync(join(sub, `module${i}.ts`), body.join("\n"));
  }
}

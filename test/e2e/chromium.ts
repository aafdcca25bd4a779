/**
 * @module test/e2e/chromium
 *
 * The headless Chromium the page, consent and page-speed runs drive through playwright-core:
 * Debian's `chromium` (CHROMIUM_PATH overrides), with the flags that keep it from doing
 * background work of its own (updates, sync, networking) during a run.
 */
import { existsSync } from "node:fs";

/** The Chromium executable: CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launch flags: headless, no sandbox (containers), and no background work of the browser's own. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

/** Throws, saying how to install it, when there is no Chromium at CHROMIUM_PATH. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}; apt-get install -y chromium, or set CHROMIUM_PATH.`);
}

/** vitest globalSetup: bundles web/client/ into web/assets/bundle.gen.ts before the workers start. */
import { buildWebAssets } from "../scripts/build-web.ts";

export default async function setup(): Promise<void> {
  await buildWebAssets();
}

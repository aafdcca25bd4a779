/** Values the vitest globalSetup (test/git-server.ts) provides to tests via `inject(...)`. */
import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback git smart-HTTP server; fixture repos are at `${url}/<name>.git`. */
    gitServerUrl: string;
    /** Base URL of the scripted Anthropic Messages API server (test/messages-api-server.ts); the API key picks the scenario. */
    messagesApiUrl: string;
    /** Base URL of the fake GitHub (`/github`) and GitLab (`/gitlab`) APIs (test/code-host-server.ts). */
    codeHostUrl: string;
  }
}

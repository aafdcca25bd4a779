/**
 * @module worker/auth
 *
 * Authentication and authorization at the edge: the OAuth 2.1 provider around the Worker,
 * upstream identity (local admin token or GitHub), API tokens, web sessions with CSRF, search
 * rate limits and signed source links. Everything here produces a `Caller`
 * (worker/services/context.ts); services decide with `canSee` / `requireScope`.
 */
export { callerFromProps, type AuthProps } from "./caller";
export { loadAuthConfig, type AuthConfig } from "./config";
export { fetchWithOAuth, oauthProviderFor, type AuthWiring, type McpHandler } from "./provider";
export { restAuth } from "./rest-auth";
export { authRoutes, sourceLinkApiRoutes } from "./routes";
export { signSourceLink, verifySourceLink } from "./source-links";

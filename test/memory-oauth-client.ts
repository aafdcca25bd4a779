/**
 * An MCP OAuth client (`OAuthClientProvider` of the official SDK) that keeps its registration,
 * tokens and PKCE verifier in memory and captures the authorization URL instead of opening a
 * browser, so a test can drive the consent itself: in workerd (test/worker/auth-oauth.test.ts)
 * or in headless Chromium (test/e2e/oauth.e2e.ts). Plain erasable TypeScript, so Node runs it.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** See the module note. `redirect` is the registered redirect URI; `clientName` what the consent page shows. */
export class MemoryOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirect: string;
  readonly clientName: string;
  constructor(redirect = "http://127.0.0.1:33418/callback", clientName = "MCP test client") {
    this.redirect = redirect;
    this.clientName = clientName;
  }
  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

// Why a redirect sign-in could not go on, as a code the login page turns into a sentence
// (/login?oauth_error=<code>, docs/oauth.md, "Sign-in that cannot start"). Only these codes
// travel in a URL, never a text, so a link cannot make the login page say anything else.
// The browser loads this module too: no server-only import.
export const OAUTH_FAILURES = ["cancelled", "no_server_address", "disabled", "provider_config", "refused"] as const;
export type OAuthFailure = (typeof OAUTH_FAILURES)[number];

export const isOAuthFailure = (value: unknown): value is OAuthFailure => OAUTH_FAILURES.includes(value as OAuthFailure);

// The provider's own `error` parameter on the way back: access_denied is the person saying no.
export const providerFailure = (error: string): OAuthFailure => (error === "access_denied" ? "cancelled" : "refused");

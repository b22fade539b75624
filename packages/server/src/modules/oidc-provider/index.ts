// The face of the oidc-provider module (yyp as an OpenID Connect provider for viewers such as OHIF,
// issue 28 item 11): what app.ts and main.ts use. Its store is private to it.
export { OidcProviderService } from './oidc-provider.service.js';
export { ACCESS_TOKEN_SECONDS } from './oidc-provider.jwt.js';
export { oidcProviderRoutes, oidcInteractionRoutes, OIDC_PROVIDER_PREFIX } from './oidc-provider.routes.js';
export { loadOidcSigningKey, makeOidcSigningKey, type OidcSigningKey } from './oidc-provider.keys.js';

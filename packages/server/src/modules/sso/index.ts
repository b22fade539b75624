// The face of the sso module (OpenID Connect single sign-on, issue 27; docs/sso.md): what app.ts
// and app-routes.ts use. Everything else in this folder is private to it.
export { ssoRoutes } from './sso.routes.js';
export { SsoService, type SsoDeps } from './sso.service.js';

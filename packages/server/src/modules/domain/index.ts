// The face of the domain module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { domainRoutes } from './domain.routes.js';
export { DomainService } from './domain.service.js';
export { DEFAULT_DOMAIN_ID, cachedDomainConfig, getDomainConfig, updateDomainConfig } from './domain.store.js';

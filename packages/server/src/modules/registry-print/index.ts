// The face of the registry-print module (the front desk's labels and referral forms, issue 22):
// what app.ts may use. Everything else in this folder is private to it.
export { registryPrintRoutes } from './registry-print.routes.js';
export { RegistryPrintService } from './registry-print.service.js';

// The face of the registry module (the front desk, issue 22): what other modules, app.ts and the
// CLI may use. Everything else in this folder (its stores above all) is private to it;
// eslint.config.js enforces the arrow.
export { procedureRoutes } from './procedures.routes.js';
export { ProceduresService } from './procedures.service.js';
export { RegistryDicom } from './registry-dicom.service.js';
export { RegistryMatch } from './registry-match.service.js';
export { registryMatchRoutes } from './registry-match.routes.js';
export { registryRoutes } from './registry.routes.js';
export { registryOrderRoutes } from './registry-orders.routes.js';
export { RegistryOrdersService } from './registry-orders.service.js';
export { RegistryExtensionsService } from './registry-extensions.service.js';
export { RegistryService } from './registry.service.js';
export { ownerOfScheduledExam } from './registry.owners.js';
export { registrationsForPrint } from './registry-print-read.js';
export { DESK_ACTIONS, DeskAccess, type DeskCaller } from './registry.access.js';
export { PASS_ALPHABET } from './registration.js';

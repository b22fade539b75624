// The face of the archive module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { archiveRoutes } from './archive.routes.js';
export { ArchiveService } from './archive.service.js';
export { indexStoredInstance } from './ingest.js';
export type { IngestResult, IngestSource } from './ingest.js';
export { nameInitials } from './pinyin.js';
export { IngestRefused, uploadBlock } from './plan.js';
export { localKeys, reindex } from './reindex.js';

// The face of the dicomweb module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { dicomWebRoutes } from './dicomweb.routes.js';
export { DicomWebService } from './dicomweb.service.js';
export { bulkDataMultipart, frameNumbers, framesMultipart } from './wado-multipart.js';
export { DimseQueryRetrieve } from './dimse-qr.service.js';
export { installDicomWebCors } from './dicomweb.cors.js';

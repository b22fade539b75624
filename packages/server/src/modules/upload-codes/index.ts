// The face of the upload-codes module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { codeError, codeOwner, codeProblem, hashCode, newCode } from './upload-codes.js';
export { endOpenCodes, findCodeByHash, insertCode, lockCode, useCode } from './upload-codes.store.js';

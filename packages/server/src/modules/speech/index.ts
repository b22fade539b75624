// The face of the speech module (text-to-speech, issue 23): what app.ts may use. Everything else
// in this folder is private to it; eslint.config.js enforces the arrow.
export { speechRoutes } from './speech.routes.js';
export { SpeechService } from './speech.service.js';

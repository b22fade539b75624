// Runs before the app's modules (a plain script ahead of them in index.html), for settings that
// must be in place before any library module is evaluated.
//
// Zod compiles object schemas with new Function unless told not to, and probes whether it may:
// the page's Content-Security-Policy allows no eval, and the refused probe is reported as a
// violation although Zod catches it. Zod reads its global configuration from this object (shared
// by every copy of Zod on the page) when a schema is built; the bundle builds the contracts'
// schemas before any of the app's own code runs, so z.config() in the app would come too late.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });

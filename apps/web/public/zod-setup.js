// Loaded by index.html before the app's entry, as a file of its own (not bundled), so it runs
// before any of the app's chunks: Zod 4 probes for eval support with `new Function('')` as it
// builds its first object schema (the contract's, when the shared chunk loads), which the
// server's CSP (script-src 'self') refuses and Chromium reports as a Content Security Policy
// issue (Lighthouse's best practices, "inspector-issues"). jitless skips the probe and the
// compiled parsers; the pages parse a few small answers, so the interpreted path is enough.
// z.config() cannot be called before that chunk runs; this is the object it writes to
// (zod/v4/core/core.js), which every copy of Zod reads.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

/**
 * The browser code runs under a Content-Security-Policy without 'unsafe-eval' (docs/SERVER.md
 * "Security headers"). zod compiles object parsers with `new Function` when it may, and finds
 * out by trying one: under the policy that try is a reported violation. Jitless, it never tries.
 * Imported first by the page (src/main.tsx) and the markers worker; the server keeps the JIT.
 */
import { z } from 'zod';

z.config({ jitless: true });

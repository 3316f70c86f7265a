import { z } from "zod";

// zod compiles fast paths with `new Function` after probing, when each object schema is
// defined, whether eval is allowed. Our CSP forbids eval, and in the browser the probe alone
// raises a CSP violation report. Validate without it. (The server entry imports this module first;
// in the browser, validation.ts does, which every form schema module imports.)
z.config({ jitless: true });

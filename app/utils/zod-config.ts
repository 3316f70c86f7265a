import { z } from "zod";

// zod compiles fast paths with `new Function` after probing, when each object schema is
// defined, whether eval is allowed. Our CSP forbids eval, and in the browser the probe alone
// raises a CSP violation report. Validate without it. (The root route imports this module first,
// and the Remix client evaluates the root route before any other.)
z.config({ jitless: true });

// The chaos soak's faults (`npm run soak -- --faults`, issue 34, decision 078): the header and the
// rule of the one switch, workers/testing/faults.ts. Its `parseRules` reads
// `chance:<percent>:<seed>`: each call of D1, R2 (put, multipart, delete), the notification hub,
// mail and Stripe made while serving the request fails with that probability, drawn from a PRNG
// seeded by <seed>. tests/workers/fault-matrix/chance.test.ts proves the two agree.

export const FAULT_HEADER = "X-Inject-Fault";

/** The rule failing `percent` % of a request's calls, drawn from `seed`. */
export const chanceFault = (percent, seed) => `chance:${percent}:${seed}`;

// Types of faults.mjs for the TypeScript test that checks it (tests/workers/fault-matrix/chance.test.ts).
export declare const FAULT_HEADER: "X-Inject-Fault";
export declare const chanceFault: (percent: number, seed: string) => string;

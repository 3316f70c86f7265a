// A closed-loop load generator: `connections` keep-alive sockets, each sending its next request as
// soon as the previous response body has arrived, for a fixed duration. node:http rather than
// fetch, because fetch asks for gzip and spends client CPU decompressing, which on a 2-CPU machine
// would be measured as server latency; every target here is fetched with the same headers.
import http from "node:http";
import { performance } from "node:perf_hooks";

/**
 * Runs one load scenario and returns throughput, latency percentiles and how the Worker answered
 * (status codes and X-Passport-Cache values), so a "cached" run that was not cached shows up.
 */
export async function measureLoad({ url, headers = {}, connections, durationMs, warmupMs = 2000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  try {
    // Warm-up opens the sockets and lets the isolate compile the path (2 s: the first scenario ran
    // on a cold isolate with less, which flattered every ratio) before timing starts.
    await runLoop({ url, headers, agent, connections, durationMs: warmupMs });
    const started = performance.now();
    const samples = await runLoop({ url, headers, agent, connections, durationMs });
    const elapsedS = (performance.now() - started) / 1000;
    return summarise(samples, elapsedS);
  } finally {
    agent.destroy();
  }
}

async function runLoop({ url, headers, agent, connections, durationMs }) {
  const deadline = performance.now() + durationMs;
  const samples = [];
  const worker = async () => {
    while (performance.now() < deadline) samples.push(await timedGet(url, headers, agent));
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return samples;
}

/** One GET whose latency is time to the last byte of the body. */
export function timedGet(url, headers, agent) {
  return new Promise((resolve) => {
    const started = performance.now();
    const request = http.get(url, { headers, agent }, (response) => {
      let bytes = 0;
      response.on("data", (chunk) => (bytes += chunk.length));
      response.on("end", () =>
        resolve({
          ms: performance.now() - started,
          status: response.statusCode,
          bytes,
          cache: response.headers["x-passport-cache"] ?? null,
          d1: response.headers["x-d1-round-trips"] ?? null,
        }),
      );
      response.on("error", (error) => resolve({ ms: performance.now() - started, status: 0, error }));
    });
    request.on("error", (error) => resolve({ ms: performance.now() - started, status: 0, error }));
  });
}

function summarise(samples, elapsedS) {
  const ok = samples.filter((sample) => sample.status === 200);
  const latencies = ok.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    requests: samples.length,
    errors: samples.length - ok.length,
    rps: ok.length / elapsedS,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    bytes: ok[0]?.bytes ?? 0,
    cache: tally(ok.map((sample) => sample.cache ?? "n/a")),
  };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function tally(values) {
  const counts = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

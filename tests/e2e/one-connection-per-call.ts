import http from "node:http";

/**
 * No connection of Playwright's request API is used for a second call. Its agent pools an idle
 * connection with no limit, while workerd closes one after 5 idle seconds and never says so: it
 * drops `Connection` and `Keep-Alive` headers both ways. A call sent as that close lands is reset
 * unanswered ("socket hang up", microsoft/playwright#42701). Node's agent asks `keepSocketAlive`
 * whether to pool a connection once its answer is read: in the test process, never (decision
 * 095). Playwright's client runs in the test process; the browser has its own network stack, and
 * a browser resends a request that a reused connection lost.
 */
export function oneConnectionPerCall() {
  http.Agent.prototype.keepSocketAlive = () => false;
}

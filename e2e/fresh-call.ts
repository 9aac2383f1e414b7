// One HTTP request on a connection of its own, as an integrator's client makes them: the balancer
// (and a node's cluster) sees each as a new connection, so round robin spreads a burst of them.
import http from "node:http";
import { E2E_PORT } from "./env";

export interface Answer {
  readonly status: number;
  /** The body's `result` for the API's answers, else the status and the start of the body. */
  readonly result: string;
  /** The node that answered (the balancer's X-Served-By); null for a node's own port or the balancer's own errors. */
  readonly servedBy: string | null;
  readonly body: string;
}

export interface CallOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** The balancer's (E2E_PORT) unless a node's own. */
  readonly port?: number;
  readonly timeoutMs?: number;
}

/** Resolves with the answer, whatever its status; rejects on a network failure (refused, reset, timed out). */
export function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: options.port ?? E2E_PORT,
        path,
        method,
        agent: false,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }), ...options.headers },
        timeout: options.timeoutMs ?? 60_000,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => {
          let result = `HTTP ${response.statusCode}: ${text.slice(0, 200)}`;
          try {
            result = (JSON.parse(text) as { result?: string }).result ?? result;
          } catch {
            // not JSON: the status and body say what happened
          }
          const servedBy = response.headers["x-served-by"];
          resolve({ status: response.statusCode ?? 0, result, servedBy: typeof servedBy === "string" ? servedBy : null, body: text });
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`${method} ${path} timed out`)));
    request.on("error", reject);
    request.end(body);
  });
}

/** A channel's pay callback for `orderNo`, through the balancer. */
export function pay(key: string, orderNo: string, bizKey: string, amount: number, headers: Readonly<Record<string, string>> = {}): Promise<Answer> {
  return call("POST", `/api/v1/orders/${encodeURIComponent(orderNo)}/events`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
    body: { event: "pay", bizKey, amount, reason: "channel callback" },
  });
}

/** Counts answers by "<status> <result>". */
export function tally(answers: readonly Answer[]): Record<string, number> {
  return countBy(answers, (a) => `${a.status} ${a.result}`);
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

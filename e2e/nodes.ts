// The app nodes behind the balancer, as the harness (e2e/server.ts) reports them: which process
// group each runs in now. A spec kills one the way a machine dies, and waits until the harness has
// started it again and the balancer sends it requests.
import { readFile } from "node:fs/promises";
import { call } from "./fresh-call";
import { E2E_NODES_FILE, type E2ENode } from "./env";

export type NodeName = E2ENode["name"];

export interface NodeFacts {
  readonly name: NodeName;
  readonly port: number;
  readonly distDir: string;
  readonly webProcesses: number;
  /** The process group of its `npm start`; null between its death and its restart. */
  readonly pgid: number | null;
  /** How many times the harness has started it. */
  readonly starts: number;
}

export async function readNodes(): Promise<readonly NodeFacts[]> {
  return (JSON.parse(await readFile(E2E_NODES_FILE, "utf8")) as { nodes: NodeFacts[] }).nodes;
}

export async function nodeFacts(name: NodeName): Promise<NodeFacts> {
  const node = (await readNodes()).find((n) => n.name === name);
  if (!node) throw new Error(`${E2E_NODES_FILE} names no ${name}`);
  return node;
}

/** SIGKILL to the node's whole process group: its supervisor, web processes and worker die at once. */
export async function killNode(name: NodeName): Promise<NodeFacts> {
  const node = await nodeFacts(name);
  if (node.pgid === null) throw new Error(`${name} is not running`);
  process.kill(-node.pgid, "SIGKILL");
  return node;
}

/**
 * Resolves once `name` runs (after `after`, a later start in a new process group), answers on its
 * own port, and the balancer sends it requests — or throws after `withinMs`.
 */
export async function waitUntilServing(name: NodeName, options: { readonly after?: NodeFacts; readonly withinMs?: number } = {}): Promise<NodeFacts> {
  const withinMs = options.withinMs ?? 120_000;
  const deadline = Date.now() + withinMs;
  let last = "";
  while (Date.now() < deadline) {
    const node = await nodeFacts(name);
    if (node.pgid !== null && node.starts > (options.after?.starts ?? 0)) {
      const direct = await call("GET", "/sign-in", { port: node.port, timeoutMs: 5_000 }).then(
        (a) => a.status,
        () => 0,
      );
      last = `${name} answers ${direct || "nothing"} on ${node.port}`;
      // The balancer's health checks need two good answers in a row before it sends requests again;
      // then, asked through the balancer, the node answers one request in two.
      if (direct === 200 && (await servedThroughBalancer(name, 6))) return node;
    } else {
      last = `${name} not running (started ${node.starts} times)`;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} was not serving within ${withinMs / 1000} s: ${last}`);
}

/** Whether any of `tries` requests through the balancer was answered by `name`. */
async function servedThroughBalancer(name: NodeName, tries: number): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    const answer = await call("GET", "/sign-in", { timeoutMs: 5_000 }).catch(() => null);
    if (answer?.servedBy === name) return true;
  }
  return false;
}

// One budget of PostgreSQL connections per node (DATABASE_POOL_MAX, default 40), split by `npm start`
// between the processes it runs, so N nodes hold at most N × DATABASE_POOL_MAX connections however
// many cores each has. Each process's pool gets its share as DATABASE_POOL_SIZE (lib/db/pool.ts).
//
// The worker gets a quarter (at least 4, at most 20): each job's claim holds a connection while its
// calls' transit() takes others. The simulator (embedded demo only) calls the API over HTTP and
// needs 2. The web processes share the rest evenly; fewer than 2 each is refused, since one
// connection per process would queue every request behind the slowest.

export const DEFAULT_POOL_MAX = 40;

export interface ConnectionBudget {
  readonly total: number;
  readonly perWebProcess: number;
  readonly worker: number;
  readonly simulator: number;
}

export function connectionBudget(env: Readonly<Record<string, string | undefined>>, processes: { readonly web: number; readonly simulator: boolean }): ConnectionBudget {
  const configured = env.DATABASE_POOL_MAX?.trim();
  const total = configured ? Number(configured) : DEFAULT_POOL_MAX;
  if (!Number.isInteger(total) || total < 1) throw new Error(`DATABASE_POOL_MAX must be a positive integer, not "${configured}"`);
  const worker = Math.min(20, Math.max(4, Math.floor(total / 4)));
  const simulator = processes.simulator ? 2 : 0;
  const perWebProcess = Math.floor((total - worker - simulator) / processes.web);
  if (perWebProcess < 2) {
    throw new Error(
      `DATABASE_POOL_MAX=${total} leaves ${Math.max(0, perWebProcess)} connection(s) for each of ${processes.web} web processes after the worker's ${worker}: ` +
        `raise it to at least ${worker + simulator + 2 * processes.web}, or lower WEB_CONCURRENCY`,
    );
  }
  return { total, perWebProcess, worker, simulator };
}

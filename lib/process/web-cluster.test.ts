import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startWebCluster, webProcessCount, type WebCluster, type WebClusterLog } from "./web-cluster";

// Real cluster workers (a tiny HTTP server that answers with its pid) behind one real port.

const FIXTURE = path.join(import.meta.dirname, "fixtures", "pid-server.mjs");

interface Entry {
  readonly level: string;
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

function recorder(): WebClusterLog & { readonly entries: Entry[] } {
  const entries: Entry[] = [];
  const push = (level: string) => (fields: object, message: string) => entries.push({ level, fields: fields as Record<string, unknown>, message });
  return { entries, info: push("info"), warn: push("warn"), error: push("error") };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function get(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent: false }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve(Number(body)));
      })
      .on("error", reject);
  });
}

/** The pids that answer `n` requests, one connection each. */
async function answering(port: number, n: number): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < n; i++) pids.add(await get(port));
  return pids;
}

const running: WebCluster[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop("SIGKILL")));
});

describe("webProcessCount", () => {
  it("is WEB_CONCURRENCY when set, else one per core, and one on the embedded database", () => {
    expect(webProcessCount({}, { embedded: false, cores: 4 })).toBe(4);
    expect(webProcessCount({ WEB_CONCURRENCY: "3" }, { embedded: false, cores: 4 })).toBe(3);
    expect(webProcessCount({}, { embedded: true, cores: 4 })).toBe(1);
    expect(webProcessCount({ WEB_CONCURRENCY: "2" }, { embedded: true, cores: 4 })).toBe(2);
    expect(webProcessCount({ WEB_CONCURRENCY: " " }, { embedded: false, cores: 2 })).toBe(2);
    for (const bad of ["0", "-1", "1.5", "many"]) expect(() => webProcessCount({ WEB_CONCURRENCY: bad }, { embedded: false })).toThrow(/WEB_CONCURRENCY/);
  });
});

describe("startWebCluster", () => {
  it("serves one port from every web process, restarts one that dies while the others serve, and stops them all", { timeout: 30_000 }, async () => {
    const port = await freePort();
    const log = recorder();
    const failures: object[] = [];
    const web = startWebCluster(
      { processes: 2, exec: FIXTURE, args: [String(port)], execArgv: [] },
      { log, upAfterMs: 300, backoff: { initialMs: 200, maxMs: 1_000, resetAfterMs: 60_000 }, onCannotStart: (f) => failures.push(f) },
    );
    running.push(web);

    await expect.poll(() => web.pids().length, { timeout: 10_000 }).toBe(2);
    const first = new Set(web.pids());
    // Round robin: both processes answer on the one port.
    await expect.poll(() => answering(port, 6), { timeout: 10_000 }).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 400)); // past upAfterMs: the console is up

    const [victim, survivor] = [...first] as [number, number];
    process.kill(victim, "SIGKILL");
    // While it is down (the restart waits 200 ms) the survivor answers every request.
    await expect.poll(() => web.pids(), { timeout: 5_000 }).toEqual([survivor]);
    expect(await answering(port, 4)).toEqual(new Set([survivor]));
    // Then it is back, as a new process, and both serve again.
    await expect.poll(() => web.pids().length, { timeout: 10_000 }).toBe(2);
    const second = new Set(web.pids());
    expect(second.has(survivor)).toBe(true);
    expect(second.has(victim)).toBe(false);
    await expect.poll(() => answering(port, 6), { timeout: 10_000 }).toEqual(second);
    expect(web.restarts()).toBe(1);
    expect(log.entries.filter((e) => e.level === "warn")).toMatchObject([{ fields: { child: "web", signal: "SIGKILL", restartInMs: 200 } }]);
    expect(failures).toEqual([]);

    await web.stop("SIGTERM");
    expect(web.pids()).toEqual([]);
    await expect(get(port)).rejects.toThrow();
  });

  it("reports a web process that exits before the console came up, and starts nothing more", { timeout: 10_000 }, async () => {
    const log = recorder();
    const failures: Record<string, unknown>[] = [];
    const web = startWebCluster(
      { processes: 2, exec: FIXTURE, args: ["--fail"], execArgv: [] },
      { log, backoff: { initialMs: 50, maxMs: 50, resetAfterMs: 60_000 }, onCannotStart: (f) => failures.push(f as Record<string, unknown>) },
    );
    running.push(web);
    await expect.poll(() => failures.length, { timeout: 5_000 }).toBe(1);
    expect(failures[0]).toMatchObject({ child: "web", code: 2 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(web.restarts()).toBe(0);
    expect(failures).toHaveLength(1);
  });
});

import pg from "pg";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useFreshDatabase } from "@/lib/test/database";
import { databaseUrl, getPool } from "./pool";
import { countInWindow, ENDED_WINDOWS_KEPT_SECONDS, sweepRateWindows, type RateWindowSpec, type WindowCount } from "./rate-window";
import { rows } from "./sql";
import { transaction } from "./transaction";

// The counters behind the limits that must hold across every process: a window's count, its end,
// its fresh start, and one count for events that arrive at once from separate pools (processes).

useFreshDatabase();

const T0 = Date.parse("2026-01-01T00:00:00Z");
const at = (ms: number) => new Date(T0 + ms);
const minute = (key: string): RateWindowSpec => ({ scope: "api-key-failures", key, seconds: 60 });

describe("countInWindow", () => {
  it("counts within the window, says how long it has left, and starts again at 1 once it has ended", async () => {
    expect(await countInWindow(getPool(), minute("a"), at(0))).toEqual({ count: 1, secondsLeft: 60 });
    expect(await countInWindow(getPool(), minute("a"), at(1))).toEqual({ count: 2, secondsLeft: 60 });
    expect(await countInWindow(getPool(), minute("a"), at(30_000))).toEqual({ count: 3, secondsLeft: 30 });
    expect(await countInWindow(getPool(), minute("a"), at(59_999))).toEqual({ count: 4, secondsLeft: 1 });
    // The window is the minute from its first event, not the one after the latest.
    expect(await countInWindow(getPool(), minute("a"), at(60_000))).toEqual({ count: 1, secondsLeft: 60 });
    expect(await countInWindow(getPool(), minute("a"), at(61_000))).toEqual({ count: 2, secondsLeft: 59 });
  });

  it("keeps each scope's keys apart", async () => {
    await countInWindow(getPool(), minute("shared"), at(0));
    expect(await countInWindow(getPool(), { scope: "store-refusals", key: "shared", seconds: 60 }, at(0))).toMatchObject({ count: 1 });
    expect(await countInWindow(getPool(), minute("other"), at(0))).toMatchObject({ count: 1 });
    expect(await countInWindow(getPool(), minute("shared"), at(0))).toMatchObject({ count: 2 });
  });

  it("reads the database's clock when given no time", async () => {
    expect(await countInWindow(getPool(), minute("clock"))).toEqual({ count: 1, secondsLeft: 60 });
    expect(await countInWindow(getPool(), minute("clock"))).toMatchObject({ count: 2 });
    const [row] = await rows(getPool(), z.object({ left: z.number() }), `SELECT extract(epoch FROM ends_at - now())::float8 AS left FROM rate_windows WHERE key = 'clock'`);
    expect(row!.left).toBeGreaterThan(50);
    expect(row!.left).toBeLessThanOrEqual(60);
  });

  it("is one count for events that arrive at once through two separate pools, as from two processes", async () => {
    const pools = [new pg.Pool({ connectionString: databaseUrl(), max: 10 }), new pg.Pool({ connectionString: databaseUrl(), max: 10 })];
    try {
      const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => countInWindow(pools[i % 2]!, minute("concurrent"))));
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      const counts = results.map((r) => (r as PromiseFulfilledResult<WindowCount>).value.count);
      // Every event got its own place: 1 to 100, each once, so exactly one saw any given limit.
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it("counts inside a transaction: rolled back, the event never happened", async () => {
    await countInWindow(getPool(), minute("tx"), at(0));
    await expect(
      transaction(async ({ client }) => {
        expect(await countInWindow(client, minute("tx"), at(1))).toMatchObject({ count: 2 });
        throw new Error("the fact beside it failed");
      }),
    ).rejects.toThrow(/the fact beside it failed/);
    expect(await countInWindow(getPool(), minute("tx"), at(2))).toMatchObject({ count: 2 });
  });
});

describe("sweepRateWindows", () => {
  it("deletes windows that ended more than an hour ago, a batch at a time, and nothing else", async () => {
    await getPool().query(`DELETE FROM rate_windows`);
    await getPool().query(
      `INSERT INTO rate_windows (scope, key, count, ends_at)
       SELECT 'api-key-failures', 'old-' || n, 1, now() - make_interval(secs => $1 + 60) FROM generate_series(1, 5) n
       UNION ALL SELECT 'api-key-failures', 'ended-recently', 20, now() - make_interval(secs => $1 - 60)
       UNION ALL SELECT 'store-refusals', 'running', 3, now() + interval '30 seconds'`,
      [ENDED_WINDOWS_KEPT_SECONDS],
    );
    expect(await sweepRateWindows(getPool(), 3)).toBe(3);
    expect(await sweepRateWindows(getPool(), 3)).toBe(2);
    expect(await sweepRateWindows(getPool(), 3)).toBe(0);
    const left = await rows(getPool(), z.object({ key: z.string() }), `SELECT key FROM rate_windows ORDER BY key`);
    expect(left).toEqual([{ key: "ended-recently" }, { key: "running" }]);
  });
});

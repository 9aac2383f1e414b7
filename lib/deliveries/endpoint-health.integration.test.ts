import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { useFreshDatabase } from "@/lib/test/database";
import { endpointHealth } from "./endpoint-health";

// Endpoint health (issue 27, item 5): success rates and p95 latencies over the last hour and day,
// and "failing for more than 15 minutes", from the attempts log.

useFreshDatabase();

const NOW = new Date("2026-12-05T12:00:00Z");
const MIN = 60_000;

/** Attempts of `url` at `minutesAgo`, each with its status (null: no answer) and latency. */
async function attempts(tenantId: string, url: string, rows: readonly [minutesAgo: number, status: number | null, latencyMs: number][]): Promise<void> {
  await getPool().query(
    `INSERT INTO outbox_attempts (tenant_id, message_id, url, attempted_at, status, error, latency_ms)
     SELECT $1, 1, $2, x.at, x.status, CASE WHEN x.status BETWEEN 200 AND 299 THEN NULL ELSE 'failed' END, x.ms
     FROM unnest($3::timestamptz[], $4::int[], $5::int[]) AS x(at, status, ms)`,
    [tenantId, url, rows.map(([m]) => new Date(NOW.getTime() - m * MIN)), rows.map(([, s]) => s), rows.map(([, , ms]) => ms)],
  );
}

beforeAll(async () => {
  // Healthy: 20 answers in the hour (latencies 10..200 ms), 1 refusal; more the day before.
  await attempts("h-ok", "https://ok.example.com/hook", [
    ...Array.from({ length: 20 }, (_, i) => [i + 1, 200, (i + 1) * 10] as [number, number, number]),
    [30, 503, 5],
    [5 * 60, 200, 1000],
    [23 * 60, 200, 1000],
    // Outside the day: not counted.
    [25 * 60, 503, 9999],
  ]);
  // Down for 40 minutes: the last success 50 minutes ago, every attempt since has failed.
  await attempts("h-down", "https://down.example.com/hook", [
    [50, 200, 40],
    [40, 503, 30],
    [20, null, 10_000],
    [2, 503, 25],
  ]);
  // Failing for only 10 minutes: not called out yet.
  await attempts("h-down", "https://flaky.example.com/hook", [
    [12, 200, 40],
    [10, 500, 30],
    [1, 500, 30],
  ]);
  await attempts("h-else", "https://else.example.com/hook", [[1, 503, 1]]);
});

describe("endpointHealth", () => {
  it("gives the hour's and the day's success rate and p95 latency per product and endpoint, in the caller's products only", async () => {
    const health = await endpointHealth(getPool(), ["h-ok", "h-down"], NOW);
    expect(health.map((h) => h.url)).toEqual(["https://down.example.com/hook", "https://flaky.example.com/hook", "https://ok.example.com/hook"]);
    const ok = health.find((h) => h.tenantId === "h-ok")!;
    expect(ok.hour).toEqual({ attempts: 21, succeeded: 20, p95LatencyMs: 190 });
    expect(ok.day).toEqual({ attempts: 23, succeeded: 22, p95LatencyMs: 920 });
    expect(ok).toMatchObject({ failingSince: null, failingTooLong: false });
  });

  it("calls out an endpoint that has failed every attempt for more than 15 minutes, not one failing for 10", async () => {
    const health = await endpointHealth(getPool(), ["h-down"], NOW);
    const down = health.find((h) => h.url === "https://down.example.com/hook")!;
    expect(down.failingSince).toEqual(new Date(NOW.getTime() - 40 * MIN));
    expect(down.failingTooLong).toBe(true);
    expect(down.hour).toEqual({ attempts: 4, succeeded: 1, p95LatencyMs: 8506 });
    const flaky = health.find((h) => h.url === "https://flaky.example.com/hook")!;
    expect(flaky.failingSince).toEqual(new Date(NOW.getTime() - 10 * MIN));
    expect(flaky.failingTooLong).toBe(false);
  });
});

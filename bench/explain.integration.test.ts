// The six console queries the large-data benchmark times (bench/queries.ts) must read the big
// tables through an index — checked here on every `npm test`, not once by eye. The plans come from
// the statements the app's query functions really send (captured, with their parameters) on a
// database seeded by the bulk seeder and ANALYZEd, so the planner sees realistic statistics; no
// planner setting is changed. 20,000 orders (over 100,000 transitions) are enough that a
// sequential scan of orders or order_transitions is never the cheap choice for a query that reads
// one page or looks up a few rows — which is the property that holds at a million.
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { useFreshDatabase } from "@/lib/test/database";
import { captureStatements, explain, judgePlan } from "./lib/capture";
import { CONSOLE_QUERIES, sampleInputs, type QueryInputs } from "./queries";

useFreshDatabase();

const ORDERS = 20_000;
let inputs: QueryInputs;

beforeAll(async () => {
  const pool = getPool();
  await seedDemo(pool, { orders: ORDERS, seed: 11, history: "dense" });
  // seedDemo ANALYZEs what it wrote; VACUUM as autovacuum would, so index-only scans are costed as in production.
  await pool.query(`VACUUM ANALYZE orders, order_transitions, order_exceptions, order_lines, grants`);
  inputs = await sampleInputs(pool, 3);
}, 120_000);

describe("console queries read orders and order_transitions through indexes", () => {
  it.each(CONSOLE_QUERIES.filter((q) => q.targeted).map((q) => [q.title, q] as const))("%s", async (_title, query) => {
    const pool = getPool();
    for (let n = 0; n < 3; n++) {
      const { statements } = await captureStatements(pool, () => query.run(inputs, n));
      // The orders list's row estimate is itself an EXPLAIN: it reads no rows.
      const measured = statements.filter((s) => !/^\s*EXPLAIN/i.test(s.text));
      expect(measured.length).toBeGreaterThan(0);
      const indexes: string[] = [];
      for (const statement of measured) {
        const verdict = judgePlan(await explain(pool, statement));
        expect(verdict.seqScans, statement.text).toEqual([]);
        indexes.push(...verdict.indexes);
      }
      expect(indexes.length, `no index on orders or order_transitions was read by ${query.key}`).toBeGreaterThan(0);
    }
  });

  it("the statements are the app's own: a lookup by order no finds that order", async () => {
    const query = CONSOLE_QUERIES.find((q) => q.key === "order-no")!;
    const result = (await query.run(inputs, 0)) as { rows: { orderNo: string }[] };
    expect(result.rows.map((r) => r.orderNo)).toContain(inputs.orders[0]!.orderNo);
  });
});

// The database the console benchmarks (console-load, console-browser) run against: the demo's
// products and staff with `orders` orders of dense history, analysed.
import type pg from "pg";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { seedDemoStaff } from "@/lib/seed/staff";

export async function seedConsoleData(pool: pg.Pool, orders: number): Promise<Awaited<ReturnType<typeof seedDemo>>> {
  const seeded = await seedDemo(pool, { orders, seed: 5, history: "dense" });
  await seedDemoStaff(pool);
  // fangzhou delivers through a grant endpoint (managed mode) that does not run here: the worker
  // would retry refused grant calls all through the measurement. As an external-mode product, its
  // orders are shown the same way and the worker has nothing to retry.
  await pool.query(`UPDATE tenant_settings SET delivery_mode = 'external', grant_endpoint_url = NULL`);
  await pool.query(`VACUUM ANALYZE orders, order_lines, order_transitions, grants, order_exceptions`);
  return seeded;
}

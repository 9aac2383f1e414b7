import { SingleBar } from "cli-progress";
import { InvalidArgumentError, type Command } from "commander";
import { z } from "zod";
import { one } from "@/lib/db/sql";
import { ORDER_STATES } from "@/lib/orders/machine";
import { HISTORY_PROFILES, type HistoryProfile } from "@/lib/seed/demo-catalog";
import { DEFAULT_SEED, SEEDED_TABLES, seedDemo, type SeedReport } from "@/lib/seed/demo/seed-demo";
import { formatDemoStaff, seedDemoStaff } from "@/lib/seed/staff";
import { runWithDatabase } from "./run";

interface SeedFlags {
  readonly orders: number;
  readonly seed: number;
  readonly history: HistoryProfile;
}

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

function historyProfile(value: string): HistoryProfile {
  if (!(HISTORY_PROFILES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${HISTORY_PROFILES.join(", ")}`);
  }
  return value as HistoryProfile;
}

export function registerSeed(program: Command): void {
  program
    .command("seed")
    .description(
      "add demo orders to the xiaoxiao and fangzhou tenants (creating them if needed); running it again adds another batch",
    )
    .option("--orders <n>", "how many orders to add", integer(0, 50_000_000), 3000)
    .option("--seed <s>", "random seed: the same seed gives the same orders", integer(0, 2 ** 31 - 1), DEFAULT_SEED)
    .option("--history <profile>", `dense (>5 transitions per order) or typical (seed 000's proportions)`, historyProfile, "dense")
    .action((flags: SeedFlags) =>
      runWithDatabase(async ({ pool, out }) => {
        const { ready } = await one(pool, z.object({ ready: z.boolean() }), `SELECT to_regclass('order_transitions') IS NOT NULL AS ready`);
        if (!ready) throw new Error("the database has no order tables yet: run `npm run cli -- migrate` first");
        // The bar goes to stderr, so stdout stays the report alone (pipeable).
        const bar = new SingleBar({
          format: "seeding [{bar}] {percentage}% | {value}/{total} orders | {rate} orders/s | ETA {eta_formatted}",
          stream: process.stderr,
          hideCursor: true,
          etaBuffer: 5,
        });
        const started = performance.now();
        bar.start(flags.orders, 0, { rate: "-" });
        let report: SeedReport;
        try {
          report = await seedDemo(pool, {
            orders: flags.orders,
            seed: flags.seed,
            history: flags.history,
            onProgress: (done) => {
              const seconds = (performance.now() - started) / 1000;
              bar.update(done, { rate: seconds > 0 ? Math.round(done / seconds).toLocaleString("en") : "-" });
            },
          });
        } finally {
          bar.stop();
        }
        for (const line of formatReport(report)) out(line);
        for (const line of formatDemoStaff(await seedDemoStaff(pool))) out(line);
      }),
    );
}

export function formatReport(report: SeedReport): string[] {
  const n = (value: number) => value.toLocaleString("en");
  const seconds = report.elapsedMs / 1000;
  const orders = report.rows.orders;
  const lines = [
    `seeded ${n(orders)} orders in ${seconds.toFixed(1)}s` +
      (orders > 0 && seconds > 0 ? ` (${n(Math.round(orders / seconds))} orders/s)` : "") +
      ` — seed ${report.seed}, ${report.history} history` +
      (report.orderIds ? `, order ids ${report.orderIds.first}–${report.orderIds.last}` : ""),
    "rows added:",
    ...SEEDED_TABLES.map((table) => `  ${table.padEnd(18)} ${n(report.rows[table]).padStart(12)}`),
    "orders by state:",
    ...ORDER_STATES.map((state) => `  ${state.padEnd(18)} ${n(report.states[state]).padStart(12)}`),
    "orders by tenant:",
    ...Object.entries(report.tenants).map(([tenant, count]) => `  ${tenant.padEnd(18)} ${n(count).padStart(12)}`),
  ];
  return lines;
}

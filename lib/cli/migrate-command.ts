import type { Command } from "commander";
import { migrate } from "@/lib/db/migrate";
import { runWithDatabase } from "./run";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending migrations from prisma/migrations (idempotent)")
    .action(() =>
      runWithDatabase(async ({ pool, out }) => {
        const client = await pool.connect();
        try {
          const report = await migrate(client);
          out(report.applied.length ? `applied: ${report.applied.join(", ")}` : "database is up to date");
        } finally {
          client.release();
        }
      }),
    );
}

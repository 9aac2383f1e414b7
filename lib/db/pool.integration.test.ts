import { describe, expect, it } from "vitest";
import { useFreshDatabase } from "@/lib/test/database";
import { withAdmin } from "@/lib/test/server";
import { getPool } from "./pool";

useFreshDatabase();

describe("the shared pool", () => {
  it("survives the server ending an idle connection, and reconnects on the next query", async () => {
    const pool = getPool();
    const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const removed = new Promise((resolve) => pool.once("remove", resolve));

    // What a PostgreSQL restart or DROP DATABASE … WITH (FORCE) does to an idle pooled connection.
    // Without the pool's "error" listener this is an uncaught exception, which fails the run.
    await withAdmin((admin) => admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]));
    await removed;

    expect(pool.totalCount).toBe(0);
    const again = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    expect(again.rows[0]!.pid).not.toBe(rows[0]!.pid);
  });
});

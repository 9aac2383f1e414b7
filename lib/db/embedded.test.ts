import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openEmbedded } from "./embedded";
import { migrate } from "./migrate";

// The embedded default: PGlite behind a loopback socket, reached with the ordinary pg driver.
const dir = await mkdtemp(path.join(tmpdir(), "orderops-embedded-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe("embedded database", () => {
  it("keeps concurrent connections' parameterized queries apart", async () => {
    const db = await openEmbedded({ dataDir: dir });
    try {
      const clients = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const client = new pg.Client({ connectionString: db.url });
          await client.connect();
          return client;
        }),
      );
      // Different parameter counts per connection: an interleaved Parse/Bind fails loudly.
      const results = await Promise.all(
        clients.map(async (client, c) => {
          const sums: number[] = [];
          for (let i = 0; i < 40; i++) {
            const params = Array.from({ length: c + 1 }, (_, k) => i + k);
            const sql = `SELECT ${params.map((_, k) => `$${k + 1}::int`).join(" + ")} AS sum`;
            sums.push((await client.query<{ sum: number }>(sql, params)).rows[0]!.sum);
          }
          return sums;
        }),
      );
      await Promise.all(clients.map((c) => c.end()));
      results.forEach((sums, c) => {
        expect(sums).toEqual(Array.from({ length: 40 }, (_, i) => Array.from({ length: c + 1 }, (_, k) => i + k).reduce((a, b) => a + b, 0)));
      });
    } finally {
      await db.stop();
    }
  });

  it("migrates and keeps its data across a restart", async () => {
    const first = await openEmbedded({ dataDir: dir });
    expect(first.owned).toBe(true);
    await withClient(first.url, async (client) => {
      await migrate(client);
      await client.query(`INSERT INTO tenants (id, name, currency) VALUES ('embedded', 'Embedded', 'CNY')`);
    });
    await first.stop();

    const second = await openEmbedded({ dataDir: dir });
    try {
      const rows = await withClient(second.url, async (client) => {
        const report = await migrate(client);
        expect(report.applied).toEqual([]);
        return (await client.query(`SELECT id FROM tenants`)).rows;
      });
      expect(rows).toEqual([{ id: "embedded" }]);
    } finally {
      await second.stop();
    }
  });
});

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

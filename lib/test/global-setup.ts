import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate } from "../db/migrate";
import { quoteIdent, urlFor, withAdmin } from "./server";

// Migrates one template database per run; each integration test file clones it (CREATE DATABASE …
// TEMPLATE is a file copy, far faster than migrating again).
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Every database of this run starts with this prefix, so two runs on one server never touch
  // each other's databases.
  const prefix = `orderops_test_${process.pid}_`;
  const template = `${prefix}tpl`;
  await withAdmin(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(template)}`);
    await admin.query(`CREATE DATABASE ${quoteIdent(template)}`);
  });
  const client = new pg.Client({ connectionString: urlFor(template) });
  await client.connect();
  try {
    await migrate(client);
  } finally {
    await client.end();
  }
  project.provide("templateDatabase", template);
  project.provide("databasePrefix", prefix);

  return async () => {
    await withAdmin(async (admin) => {
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
        [prefix],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
    });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
    databasePrefix: string;
  }
}

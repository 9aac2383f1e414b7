import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate } from "../db/migrate";
import { quoteIdent, urlFor, withAdmin } from "./server";

// Migrates one template database per run; each integration test file clones it (CREATE DATABASE …
// TEMPLATE is a file copy, far faster than migrating again).
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = `orderops_test_tpl_${process.pid}`;
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

  return async () => {
    await withAdmin(async (admin) => {
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'orderops_test_%'`,
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
    });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { transitScript } from "./lib/transit-script";

it("bench/transit.pgbench.sql is the SQL transit() sends for a pay (regenerate it: npx tsx --conditions=react-server bench/lib/transit-script.ts)", () => {
  const file = readFileSync(path.join(__dirname, "transit.pgbench.sql"), "utf8");
  expect(file).toBe(transitScript({ history: false }));
});

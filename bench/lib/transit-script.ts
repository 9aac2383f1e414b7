// bench/transit.pgbench.sql: transit()'s pay as pgbench runs it, written from the statements the
// app prepares (lib/orders/transit.ts, rows.ts, write-transitions.ts), so "the same SQL" stays the
// same: bench/transit-script.test.ts fails when the file and the app drift apart.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LOCK_ORDER } from "@/lib/orders/rows";
import { factsStatement } from "@/lib/orders/transit";
import { WRITE_ONE } from "@/lib/orders/write-transitions";
import { BENCH_DIR, isMain, OUT_DIR } from "./runner";

/** transit's parameters as pgbench variables: the order from the lock's \gset, the rest from -D. */
const LOCK = ["id"].map((v) => `:${v}`);
const FACTS = [":o_tenantId", ":o_id", "'pay'", ":id::text"];
const WRITE = [
  ":o_id",
  ":o_tenantId",
  "'pay'",
  ":o_state",
  ":to",
  ":id",
  ":actor",
  ":source",
  ":reason",
  ":o_version",
  "'order.transitioned'",
  // transit builds the outbox payload in JS; here the server builds the same object.
  `jsonb_build_object('tenantId', :o_tenantId::text, 'orderNo', :o_orderNo::text, 'event', 'pay', 'from', :o_state::text, 'to', :to::text, 'version', :o_version::int + 1, 'bizKey', :id::text, 'source', :source::text)`,
];

function bind(text: string, values: readonly string[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => values[Number(n) - 1]!);
}

/** The script, for a pay whose answer needs the order's history (the API's) or not (transit()'s). */
export function transitScript(options: { readonly history: boolean }): string {
  const facts = factsStatement({ refundFrom: false, lines: false, history: options.history, rules: false });
  return `-- transit() as pgbench runs it: written by bench/lib/transit-script.ts from the statements the app
-- prepares; do not edit by hand. A pay on an order in \`created\`${options.history ? ", answered with its history (the API's)" : ""}:
-- BEGIN; lock the order row; the facts statement (${facts.name}); the write (${WRITE_ONE.name}:
-- the transition, linked into the order's audit chain, the compare-and-set update moving the chain's
-- head, the outbox message); COMMIT. Run with -M prepared (the ceiling) or -M extended (unnamed).
-- Variables (-D): n=0 base=<first order id> stride=<orders per client> to=paid actor=… source=callback
--   reason=…. Each client pays its own orders, base + client_id·stride + 1, 2, 3, …, with the order
-- id as the bizKey.
\\set n :n + 1
\\set id :base + :client_id * :stride + :n
BEGIN;
${bind(LOCK_ORDER.text, LOCK)} \\gset o_
${bind(facts.text, FACTS)};
${bind(WRITE_ONE.text, WRITE)};
COMMIT;
`;
}

/**
 * The scripts' -D variables for paying the orders of `block` as `actor`: each of pgbench's clients
 * pays its own `stride` of them (pgbench numbers clients from 0; the script adds n = 1, 2, …).
 */
export function payVariables(block: { readonly firstId: number }, stride: number, actor: string): Record<string, string | number> {
  return { n: 0, base: block.firstId - 1, stride, to: "paid", actor, source: "callback", reason: "bench" };
}

/** Writes bench/transit.pgbench.sql (transit()'s pay) and returns its path; the API's variant goes to bench/out/. */
export function writeTransitScript(options: { readonly history: boolean }): string {
  const file = options.history ? path.join(OUT_DIR, "transit-with-history.pgbench.sql") : path.join(BENCH_DIR, "transit.pgbench.sql");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, transitScript(options));
  return file;
}

if (isMain(import.meta.url)) process.stdout.write(`wrote ${path.relative(process.cwd(), writeTransitScript({ history: false }))}\n`);

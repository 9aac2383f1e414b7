// `npm run bench [-- name ... --orders N --reseed --drop-large --quick]`: runs the benchmarks one
// after another and writes bench/RESULTS.md. Each benchmark file also runs on its own.
import { consoleBrowserBench } from "./console-browser";
import { consoleLoadBench } from "./console-load";
import { hotOrderBench } from "./hot-order";
import { httpPayBench } from "./http-pay";
import { largeDataBench } from "./large-data";
import { orderPresenceBench } from "./order-presence";
import { BENCH_NAMES, parseArgs, runBenches, USAGE, type Bench } from "./lib/runner";
import { outboxRelayBench } from "./outbox-relay";
import { timeoutCloseBench } from "./timeout-close";
import { transitBench } from "./transit-vs-pgbench";

const ALL: readonly Bench[] = [transitBench, hotOrderBench, largeDataBench, consoleLoadBench, timeoutCloseBench, outboxRelayBench, httpPayBench, consoleBrowserBench, orderPresenceBench];

try {
  const { names, args } = parseArgs(process.argv.slice(2));
  const unknown = names.filter((n) => !ALL.some((b) => b.name === n));
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(", ")}\n${USAGE}`);
  const selected = names.length === 0 ? ALL : ALL.filter((b) => names.includes(b.name));
  const results = await runBenches(selected, BENCH_NAMES, args);
  process.exit(results.some((r) => r.error) ? 1 : 0);
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

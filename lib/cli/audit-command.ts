import type { Command } from "commander";
import { verifyChains, type Broken } from "@/lib/audit/chain";
import { sealCheckpoint } from "@/lib/audit/checkpoint";
import { runWithDatabase } from "./run";

/** "order_transitions #812 (order 55 of xiaoxiao, position 4, written 2026-…): its content changed" */
export function describeBroken(b: Broken): string {
  const chain = b.orderId ? `order ${b.orderId} of ${b.tenantId}` : b.tenantId ? `tenant ${b.tenantId}` : "the global chain";
  const what: Record<Broken["why"], string> = {
    "content-changed": "its content was changed after it was written",
    "link-broken": "it no longer follows the fact before it (one was removed, inserted or changed)",
    "sequence-gap": "a position in the chain is missing or doubled",
    "head-mismatch": "the chain's head does not match its last fact (facts were cut off its end)",
    "checkpoint-mismatch": "a sealed checkpoint no longer matches the chain",
  };
  return `${b.log} #${b.id} (${chain}, position ${b.seq}${b.at ? `, written ${b.at}` : ""}): ${what[b.why]}`;
}

export function registerAudit(program: Command): void {
  const audit = program.command("audit").description("the tamper-evident audit log");
  audit
    .command("verify")
    .description("recompute every audit chain and report the first broken link (exit code 1 if there is one)")
    .option("--tenant <id>", "only this tenant's chains")
    .action((flags: { tenant?: string }) =>
      runWithDatabase(async ({ out }) => {
        const result = await verifyChains(flags.tenant ? { tenant: flags.tenant } : {});
        if (result.ok) {
          out(`ok: ${result.facts} facts in ${result.chains} chains verified`);
          return;
        }
        out(`BROKEN: ${describeBroken(result.broken)}`);
        process.exitCode = 1;
      }),
    );
  audit
    .command("checkpoint")
    .description("verify what was written since the last checkpoint and seal it (the worker does this every minute)")
    .action(() =>
      runWithDatabase(async ({ out }) => {
        for (;;) {
          const report = await sealCheckpoint();
          if (report.result === "broken") {
            out(`BROKEN: ${describeBroken(report.broken)}`);
            process.exitCode = 1;
            return;
          }
          if (report.result !== "sealed") return out(report.result === "busy" ? "another checkpoint is being sealed" : "nothing new to seal");
          out(`sealed checkpoint #${report.checkpoint}: ${report.facts} facts in ${report.chains} chains`);
          if (!report.more) return;
        }
      }),
    );
}

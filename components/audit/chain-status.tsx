import { useTranslations } from "next-intl";
import { Time } from "@/components/ui/time";
import type { ChainStatus } from "@/lib/audit/checkpoint";

const WHY = ["content-changed", "link-broken", "sequence-gap", "head-mismatch", "checkpoint-mismatch"] as const;
const isWhy = (value: string): value is (typeof WHY)[number] => (WHY as readonly string[]).includes(value);

/**
 * Whether the log was edited behind the database's back, as the worker's last check found it:
 * verified up to a checkpoint, broken (in red, with the first broken link), or not yet checked.
 */
export function ChainStatusLine({ status }: { status: ChainStatus }) {
  const t = useTranslations("audit.chain");
  if (status.broken) {
    const { at, detail: b } = status.broken;
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-800" data-testid="chain-status" data-chain="broken">
        {t.rich("broken", {
          log: b.log,
          id: b.id,
          why: isWhy(b.why) ? t(`why.${b.why}`) : b.why,
          time: () => <Time value={at} />,
        })}
      </p>
    );
  }
  if (status.checkpoint) {
    const c = status.checkpoint;
    return (
      <p className="text-sm text-emerald-800" data-testid="chain-status" data-chain="verified">
        {t.rich("verified", { id: c.id, facts: c.facts, time: () => <Time value={c.at} /> })}
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-500" data-testid="chain-status" data-chain="unverified">
      {t("unverified")}
    </p>
  );
}

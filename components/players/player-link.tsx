import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { CopyButton } from "@/components/ui/copy-button";
import { playerHref } from "@/lib/http/record-pages";

/** A player id wherever the console shows one: opens the player's page; copyable as it is. */
export function PlayerLink({ tenantId, playerId, copy = true }: { tenantId: string; playerId: string; copy?: boolean }) {
  const t = useTranslations("player");
  return (
    <span className="inline-flex items-center gap-1">
      <Link
        href={playerHref(tenantId, playerId)}
        className="font-mono text-slate-900 underline decoration-slate-300 underline-offset-2 hover:decoration-slate-900"
        title={t("open", { playerId })}
      >
        {playerId}
      </Link>
      {copy ? <CopyButton value={playerId} label={t("copy")} /> : null}
    </span>
  );
}

import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { encodeCursor } from "@/lib/audit/queries/cursor";
import type { AuditPage } from "@/lib/audit/queries/read-page";

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100";

/** The neighbouring pages of a keyset-paged list, each as the text of its `before`/`after` position; null: none. */
export interface PagePositions {
  readonly newer?: string | null;
  readonly older: string | null;
}

/** An audit page's neighbours (the explorer's, the security log's). */
export function auditPositions(page: AuditPage): PagePositions {
  return { newer: page.newer ? encodeCursor(page.newer) : null, older: page.older ? encodeCursor(page.older) : null };
}

/** Newest / newer / older links of a keyset-paged list; `href` keeps the page's filters. */
export function PageLinks({ positions, isFirstPage, href }: { positions: PagePositions; isFirstPage: boolean; href: (extra?: Record<string, string>) => string }) {
  const t = useTranslations("audit");
  return (
    <nav aria-label={t("pages")} className="flex items-center gap-2">
      {!isFirstPage ? (
        <Link href={href()} className={LINK}>
          {t("newest")}
        </Link>
      ) : null}
      {positions.newer ? (
        <Link href={href({ before: positions.newer })} className={LINK} rel="prev">
          {t("newer")}
        </Link>
      ) : null}
      {positions.older ? (
        <Link href={href({ after: positions.older })} className={`ml-auto ${LINK}`} rel="next">
          {t("older")}
        </Link>
      ) : null}
    </nav>
  );
}

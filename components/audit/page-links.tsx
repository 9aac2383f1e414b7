import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { encodeCursor } from "@/lib/audit/queries/cursor";
import type { AuditPage } from "@/lib/audit/queries/read-page";

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100";

/** Newest / newer / older links of a keyset-paged audit list; `href` keeps the page's filters. */
export function PageLinks({ page, isFirstPage, href }: { page: AuditPage; isFirstPage: boolean; href: (extra?: Record<string, string>) => string }) {
  const t = useTranslations("audit");
  return (
    <nav aria-label={t("pages")} className="flex items-center gap-2">
      {!isFirstPage ? (
        <Link href={href()} className={LINK}>
          {t("newest")}
        </Link>
      ) : null}
      {page.newer ? (
        <Link href={href({ before: encodeCursor(page.newer) })} className={LINK} rel="prev">
          {t("newer")}
        </Link>
      ) : null}
      {page.older ? (
        <Link href={href({ after: encodeCursor(page.older) })} className={`ml-auto ${LINK}`} rel="next">
          {t("older")}
        </Link>
      ) : null}
    </nav>
  );
}

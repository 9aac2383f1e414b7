"use client";

import { useTranslations } from "next-intl";
import { SearchBox } from "@/components/search/search-box";
import { Link } from "@/components/ui/link";
import { can } from "@/lib/auth/permissions";
import type { Me } from "@/lib/read/me";
import { BackButton } from "./back-button";
import { useMe } from "./console-frame";

/**
 * What a dead end says, in the reader's language: the same words for an address that names nothing
 * and for an order or a product outside the reader's scope (which must not be told apart), then a
 * way on: the search box, back, the overview. A visitor who is not signed in gets the sign-in page.
 * Who reads it is known once the browser has read it (useMe): until then, the heading alone.
 */
export function NotFoundBody() {
  const t = useTranslations("notFound");
  const { data: staff, isPending } = useMe();
  return (
    <div className="mx-auto max-w-2xl py-6" data-testid="not-found">
      <p className="font-mono text-sm text-slate-500">404</p>
      <h1 className="mt-1 text-2xl font-semibold">{t("title")}</h1>
      {isPending ? null : <WayOn staff={staff ?? null} />}
    </div>
  );
}

function WayOn({ staff }: { staff: Me | null }) {
  const t = useTranslations("notFound");
  const searches = staff !== null && can(staff.role, "orders:view");
  return (
    <>
      <p className="mt-2 text-slate-700">{staff ? t("body") : t("bodySignedOut")}</p>
      {searches ? (
        <section className="mt-6 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="not-found-search-heading">
          <h2 id="not-found-search-heading" className="mb-2 text-sm font-medium text-slate-700">
            {t("searchHeading")}
          </h2>
          <SearchBox id="not-found-search" variant="page" />
        </section>
      ) : null}
      <div className="mt-6 flex flex-wrap items-center gap-3 text-sm">
        {staff ? (
          <>
            <BackButton label={t("back")} />
            <Link href="/" className="rounded-md border border-slate-300 bg-white px-3 py-2 font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900">
              {t("home")}
            </Link>
          </>
        ) : (
          <Link href="/sign-in" className="rounded-md bg-slate-900 px-3 py-2 font-medium text-white hover:bg-slate-700">
            {t("signIn")}
          </Link>
        )}
      </div>
    </>
  );
}

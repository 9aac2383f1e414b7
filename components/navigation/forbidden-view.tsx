"use client";

import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { Suspense } from "react";
import { Link } from "@/components/ui/link";
import { isPermission, leastRoleWith } from "@/lib/auth/permissions";
import { BackButton } from "./back-button";
import { useMe } from "./console-frame";

/**
 * Where a page or a read model sends a signed-in caller without the permission it needs (`?need=`):
 * says who they are and which role the page starts at, with the ways on of the not-found page. Who is
 * signed in comes from the frame's model; until it is there, the heading alone.
 */
export function ForbiddenView() {
  const t = useTranslations("forbidden");
  return (
    <div className="mx-auto max-w-2xl py-6" data-testid="forbidden">
      <p className="font-mono text-sm text-slate-500">403</p>
      <h1 className="mt-1 text-2xl font-semibold">{t("title")}</h1>
      {/* Suspense: the permission asked for is read from the URL, in the browser. */}
      <Suspense>
        <Why />
      </Suspense>
      <div className="mt-6 flex flex-wrap items-center gap-3 text-sm">
        <BackButton label={t("goBack")} />
        <Link href="/" className="rounded-md border border-slate-300 bg-white px-3 py-2 font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900">
          {t("back")}
        </Link>
      </div>
    </div>
  );
}

function Why() {
  const t = useTranslations("forbidden");
  const roles = useTranslations("admin.roleName");
  const need = useSearchParams().get("need");
  const { data: staff } = useMe();
  if (!staff) return null;
  const least = isPermission(need) ? leastRoleWith(need) : undefined;
  return (
    <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-slate-800">
      <p>{t("signedInAs", { role: roles(staff.role) })}</p>
      {least ? <p className="mt-1">{t("needs", { permission: need!, least: roles(least) })}</p> : null}
      <p className="mt-1">{t("askAdmin")}</p>
    </div>
  );
}

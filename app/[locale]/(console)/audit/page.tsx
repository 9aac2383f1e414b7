import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { AuditLoading, AuditView } from "@/components/audit/audit-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "audit" }))("title") };
}

// Prerendered per locale. The explorer reads nothing here: the browser reads the facts for its URL
// from /api/console/audit (session, audit:view, the caller's products) and lays them out
// (components/audit/audit-view.tsx). Suspense: the view reads the URL's query string.
export default async function AuditPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<AuditLoading />}>
      <AuditView />
    </Suspense>
  );
}

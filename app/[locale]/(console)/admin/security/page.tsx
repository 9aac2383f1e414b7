import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { SecurityLoading, SecurityView } from "@/components/security/security-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "security" }))("title") };
}

// Prerendered per locale. The log reads nothing here: the browser reads the page of facts for its URL
// from /api/console/admin/security (session, users:manage, the facts without a product and the
// caller's own) and lays it out (components/security/security-view.tsx). Suspense: the view reads
// the URL's query string.
export default async function SecurityLogPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<SecurityLoading />}>
      <SecurityView />
    </Suspense>
  );
}

import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { SettingsLoading, SettingsView } from "@/components/settings/settings-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "settings" }))("title") };
}

// Prerendered per locale. The settings read nothing here: the browser reads them from
// /api/console/settings (session, settings:edit, the caller's products) and lays out their forms
// (components/settings/settings-view.tsx). Suspense: the view reads the URL's `tenant`.
export default async function SettingsPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<SettingsLoading />}>
      <SettingsView />
    </Suspense>
  );
}

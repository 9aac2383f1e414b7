import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ApiKeysView } from "@/components/api/api-keys-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "admin.apiKeys" }))("title") };
}

// Prerendered per locale. The keys are read by the browser from /api/console/admin/api-keys (session,
// apikeys:manage, the caller's products; never a secret) and laid out in components/api/api-keys-view.tsx.
export default async function ApiKeysPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <ApiKeysView />;
}

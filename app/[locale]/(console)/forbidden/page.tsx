import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ForbiddenView } from "@/components/navigation/forbidden-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "forbidden" }))("pageTitle") };
}

// Prerendered per locale. Where a refused read model sends a signed-in caller
// without the page's permission (components/navigation/forbidden-view.tsx).
export default async function ForbiddenPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <ForbiddenView />;
}

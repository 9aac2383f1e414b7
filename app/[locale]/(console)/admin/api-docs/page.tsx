import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ApiDocsView } from "@/components/api/api-docs-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "apiDocs" }))("pageTitle") };
}

// Prerendered per locale, with none of the reference in it: the browser reads the OpenAPI document
// from /api/v1/openapi.json (apikeys:manage) and lays it out (components/api/api-docs-view.tsx).
export default async function ApiDocsPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <ApiDocsView />;
}

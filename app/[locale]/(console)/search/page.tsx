import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { SearchLoading, SearchView } from "@/components/search/search-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "search" }))("pageLabel") };
}

// Prerendered per locale. Where the search box's term leads is asked by the browser of
// /api/console/search (session, orders:view, the caller's products), which then replaces this
// address with it (components/search/search-view.tsx). Suspense: the view reads the URL's term.
export default async function SearchPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return (
    <Suspense fallback={<SearchLoading />}>
      <SearchView />
    </Suspense>
  );
}

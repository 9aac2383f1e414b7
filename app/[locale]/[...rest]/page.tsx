import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

type Props = { params: Promise<{ locale: string }> };

// The tab's title is the page's: Next takes metadata from a not-found file only at the top of app/.
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "notFound" }))("pageTitle") };
}

// An address no page knows, under its locale: the console's not-found page (app/[locale]/not-found.tsx).
export default function UnknownPage() {
  notFound();
}

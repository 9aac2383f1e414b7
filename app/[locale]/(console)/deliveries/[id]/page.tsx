import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { DeliveryView } from "@/components/deliveries/delivery-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "deliveries" }))("message.title") };
}

// One shell for every message, prerendered per locale: proxy.ts rewrites /deliveries/<id> to
// /<locale>/deliveries/_, and the view takes the message from the browser's address. The browser
// reads the message's read model from /api/console/deliveries/<id>, which checks the session, the
// permission and the message's tenant (components/deliveries/delivery-view.tsx).
export function generateStaticParams() {
  return [{ id: "_" }];
}
export const dynamicParams = false;

export default async function DeliveryPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <DeliveryView />;
}

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { NotFoundPage } from "@/components/navigation/not-found-page";

// Addresses no route knows (app/[locale]/[...rest]), and those proxy.ts sends there because they
// name nothing (escapes that do not decode, a NUL in an order's address): the console's not-found
// page, in the console's frame for someone signed in, and the same words with the way to sign in for
// anyone else.
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("notFound"))("pageTitle") };
}

export default function NotFound() {
  return <NotFoundPage />;
}

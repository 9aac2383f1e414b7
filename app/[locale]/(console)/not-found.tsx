import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { NotFoundBody } from "@/components/navigation/not-found-body";

// notFound() in any console page — an order or a player outside one's products included — renders
// here, inside the console's frame (header, search box, navigation).
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("notFound"))("pageTitle") };
}

export default function ConsoleNotFound() {
  return <NotFoundBody />;
}

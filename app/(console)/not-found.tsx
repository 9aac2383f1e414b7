import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { NotFoundBody } from "@/components/navigation/not-found-body";
import { currentStaff } from "@/lib/auth/current-staff";

// notFound() in any console page — an order or a player outside one's products included — renders
// here, inside the console's frame (header, search box, navigation).
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("notFound"))("pageTitle") };
}

export default async function ConsoleNotFound() {
  return <NotFoundBody staff={await currentStaff()} />;
}

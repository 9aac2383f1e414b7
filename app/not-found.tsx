import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ConsoleFrame } from "@/components/navigation/console-frame";
import { NotFoundBody } from "@/components/navigation/not-found-body";
import { currentStaff } from "@/lib/auth/current-staff";

// Addresses no route knows, and those proxy.ts rewrites here because their escapes cannot be
// decoded: the console's not-found page in the console's frame for someone signed in, and the same
// words with the way to sign in for anyone else.
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("notFound"))("pageTitle") };
}

export default async function NotFound() {
  const staff = await currentStaff().catch(() => null);
  if (!staff) {
    return (
      <main className="px-6 py-10">
        <NotFoundBody staff={null} />
      </main>
    );
  }
  return (
    <ConsoleFrame staff={staff}>
      <NotFoundBody staff={staff} />
    </ConsoleFrame>
  );
}

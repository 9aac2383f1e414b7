import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { NewStaffUserView } from "@/components/admin/new-staff-user-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "admin.newUser" }))("title") };
}

// Prerendered per locale. What the form offers (the products and roles the caller may hand out) the
// browser reads from /api/console/admin/users/new (components/admin/new-staff-user-view.tsx).
export default async function NewStaffUserPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <NewStaffUserView />;
}

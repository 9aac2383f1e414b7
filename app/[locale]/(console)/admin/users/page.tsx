import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { StaffListView } from "@/components/admin/staff-list-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "admin.users" }))("title") };
}

// Prerendered per locale. The staff list reads nothing here: the browser reads it from
// /api/console/admin/users (session, users:manage, the accounts within the caller's products) and
// lays it out (components/admin/staff-list-view.tsx).
export default async function StaffUsersPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <StaffListView />;
}

import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { StaffUserView } from "@/components/admin/staff-user-view";

// A shell reads nothing of the request: the build fails if this page ever does.
export const dynamic = "error";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await getTranslations({ locale: (await params).locale, namespace: "admin.user" }))("title") };
}

// One shell for every staff member, prerendered per locale: proxy.ts rewrites /admin/users/<id> to
// /<locale>/admin/users/_, and the view takes the account from the browser's address. It reads nothing
// here: the browser reads the account's read model from /api/console/admin/users/<id>, which checks
// the session, the permission and that every product of the account is within the caller's own
// (components/admin/staff-user-view.tsx).
export function generateStaticParams() {
  return [{ id: "_" }];
}
export const dynamicParams = false;

export default async function StaffUserPage({ params }: Props) {
  setRequestLocale((await params).locale);
  return <StaffUserView />;
}

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("signIn"))("pageTitle") };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[] }> }) {
  const t = await getTranslations("signIn");
  const { callbackUrl } = await searchParams;
  // Only ever return to a path on this site (a repeated parameter is nobody's link of ours).
  const back = safeCallbackPath(typeof callbackUrl === "string" ? callbackUrl : null);
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold">{t("title")}</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">{t("subtitle")}</p>
        <SignInForm callbackUrl={back} />
      </div>
    </main>
  );
}

"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { noResource } from "@/lib/auth/scope";
import { getPrisma } from "@/lib/db/prisma";
import { LOCALE_COOKIE, LOCALES } from "@/lib/i18n/locales";

const input = z.object({ locale: z.enum(LOCALES) });

/** The signed-in user's UI language; kept on their account so it follows them to any browser. */
export const setLocale = defineAction({ name: "profile.set-locale", permission: "profile:edit", input, scope: noResource }, async ({ locale }, { staff }) => {
  await getPrisma().staffUser.update({ where: { id: staff.id }, data: { locale, updatedAt: new Date() } });
  (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", sameSite: "lax", maxAge: 60 * 60 * 24 * 365 });
  return { locale };
});

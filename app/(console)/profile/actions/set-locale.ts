"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { getPool } from "@/lib/db/pool";
import { LOCALE_COOKIE, LOCALES } from "@/lib/i18n/locales";

const input = z.object({ locale: z.enum(LOCALES) });

/** The signed-in user's UI language; kept on their account so it follows them to any browser. */
export const setLocale = defineAction({ name: "profile.set-locale", permission: "profile:edit", input }, async ({ locale }, { staff }) => {
  await getPool().query(`UPDATE staff_users SET locale = $1, updated_at = now() WHERE id = $2`, [locale, staff.id]);
  (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", sameSite: "lax", maxAge: 60 * 60 * 24 * 365 });
  return { locale };
});

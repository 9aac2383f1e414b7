"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { noResource } from "@/lib/auth/scope";
import { getPrisma } from "@/lib/db/prisma";
import { LOCALES } from "@/lib/i18n/locales";
import { rememberLocale } from "@/lib/i18n/remember-locale";

const input = z.object({ locale: z.enum(LOCALES) });

/** The signed-in user's UI language; kept on their account so it follows them to any browser. */
export const setLocale = defineAction({ name: "profile.set-locale", permission: "profile:edit", input, scope: noResource }, async ({ locale }, { staff }) => {
  await getPrisma().staffUser.update({ where: { id: staff.id }, data: { locale, updatedAt: new Date() } });
  await rememberLocale(locale);
  return { locale };
});

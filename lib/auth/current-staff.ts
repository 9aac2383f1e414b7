import "server-only";
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { cache } from "react";
import { authOptionsFor } from "./options";
import { loadActiveStaff, type Staff } from "./staff";

/**
 * The signed-in staff member for this request, or null. Checked against the database every time
 * (once per request thanks to `cache`), so a disabled user, a changed role or a sign-out elsewhere
 * (token_version) takes effect at once.
 */
export const currentStaff = cache(async (): Promise<Staff | null> => {
  const session = await getServerSession(authOptionsFor(await headers()));
  if (!session?.staffId) return null;
  return loadActiveStaff(session.staffId, session.tokenVersion);
});

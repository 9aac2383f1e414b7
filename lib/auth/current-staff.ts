import "server-only";
import { getServerSession } from "next-auth";
import { cache } from "react";
import { authOptions } from "./options";
import { loadActiveStaff, type Staff } from "./staff";

/**
 * The signed-in staff member for this request, or null. Checked against the database every time
 * (once per request thanks to `cache`), so a disabled user or a changed role takes effect at once.
 */
export const currentStaff = cache(async (): Promise<Staff | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.staffId) return null;
  return loadActiveStaff(session.staffId, session.tokenVersion);
});

import "server-only";
import type { Role } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import type { Locale } from "@/lib/i18n/locales";

/** Who is signed in, as the console's frame shows them (header, navigation, language). */
export interface Me {
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly locale: Locale;
}

/** The frame's read model: the session's staff member, as loadActiveStaff() found them for this request. */
export function readMe(staff: Staff): Me {
  return { email: staff.email, name: staff.name, role: staff.role, locale: staff.locale };
}

import { useTranslations } from "next-intl";
import type { Role } from "@/lib/auth/permissions";

/** The roles offered (up to the admin's own), each with what it is for, so the choice is made knowingly. */
export function RoleOptions({ roles }: { roles: readonly Role[] }) {
  const t = useTranslations("admin.roleChoice");
  return (
    <>
      {roles.map((role) => (
        <option key={role} value={role}>
          {t(role)}
        </option>
      ))}
    </>
  );
}

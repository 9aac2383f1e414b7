import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { audit } from "@/lib/audit/record";
import { currentStaff } from "./current-staff";
import { can, type Permission } from "./permissions";
import { actorOf, type Staff } from "./staff";

/**
 * Every console page starts with this. Anonymous → the sign-in page (and back here afterwards);
 * signed in without the permission → the forbidden page, and the attempt is audited.
 */
export async function requireStaff(permission?: Permission): Promise<Staff> {
  const staff = await currentStaff();
  if (!staff) {
    const path = (await headers()).get("x-pathname") ?? "/";
    redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  }
  if (permission && !can(staff.role, permission)) {
    await audit({ actor: actorOf(staff), action: "access.denied", target: `page:${permission}`, detail: { role: staff.role } });
    redirect(`/forbidden?need=${encodeURIComponent(permission)}`);
  }
  return staff;
}

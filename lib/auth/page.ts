import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { audit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { decodePathSegment } from "@/lib/path-segment";
import { currentStaff } from "./current-staff";
import { can, type Permission } from "./permissions";
import { resolveScope, type ScopeRule } from "./scope";
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

/**
 * The page's resource through the same scope rules as actions and routes (lib/auth/scope.ts):
 * missing and out of scope both render the not-found page; out of scope is audited.
 */
export async function requireResource<I, R>(staff: Staff, rule: ScopeRule<I, R>, input: I): Promise<R> {
  try {
    return await resolveScope(rule, input, staff);
  } catch (error) {
    if (error instanceof AppError && (error.code === "not-found" || error.code === "forbidden")) notFound();
    throw error;
  }
}

/**
 * A page's path segment as the page means it. Next hands pages their segments still percent-encoded
 * (route handlers get them decoded), so this decodes once; a segment that cannot name anything we
 * store — a malformed escape, a NUL — is simply not found. Every dynamic segment of a page goes
 * through here.
 */
export function pathSegment(raw: string): string {
  const segment = decodePathSegment(raw);
  if (segment === null) notFound();
  return segment;
}

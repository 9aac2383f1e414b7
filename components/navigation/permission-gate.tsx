"use client";

import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { can, type Permission } from "@/lib/auth/permissions";
import { useMe } from "./console-frame";

/**
 * A page that reads no data of its own (its content is made at build, the same for everyone): shown
 * once the frame's model says the reader holds `permission`, else the forbidden page. Only what the
 * reader sees is decided here; anything the page's links read is checked by its own route.
 */
export function PermissionGate({ permission, loading, children }: { permission: Permission; loading: ReactNode; children: ReactNode }) {
  const { data: me } = useMe();
  if (me === undefined) return loading;
  if (!can(me.role, permission)) redirect(`/forbidden?need=${encodeURIComponent(permission)}`);
  return children;
}

import { notFound, redirect } from "next/navigation";
import type { Permission } from "@/lib/auth/permissions";
import { ReadError } from "@/lib/read/wire";

/**
 * A view's read model was refused or failed: the styled page for it, as a page rendered on the
 * server shows it — sign-in (and back to `path` after), forbidden (naming the permission), not found;
 * anything else (the database is down) goes to the console's error page, which waits out an outage.
 * Called while rendering, as next/navigation's own helpers are.
 */
export function showReadRefusal(error: Error, path: string, permission: Permission): never {
  if (error instanceof ReadError) {
    if (error.status === 401) redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
    if (error.status === 403) redirect(`/forbidden?need=${encodeURIComponent(permission)}`);
    if (error.status === 404) notFound();
  }
  throw error;
}

/** A refusal is an answer (asking again gets the same one); a failure is retried once. */
export function retryRead(failures: number, error: Error): boolean {
  return !(error instanceof ReadError && error.status < 500) && failures < 1;
}

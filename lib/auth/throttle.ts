import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";

// Sign-in throttling, counted from audit_events (the record we keep anyway), so it holds across
// every web instance without any in-memory state.
export const THROTTLE = {
  windowSeconds: 15 * 60,
  /** Failures for one account since its last success, within the window. */
  perAccount: 5,
  /** Failures from one IP address within the window, whatever the account. */
  perIp: 20,
} as const;

export type ThrottleVerdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export async function signInAllowed(email: string, ip: string | null): Promise<ThrottleVerdict> {
  const row = await one(
    getPool(),
    z.object({ account: z.coerce.date().nullable(), address: z.coerce.date().nullable() }),
    `SELECT
       (SELECT min(created_at) FROM (
          SELECT created_at FROM audit_events
          WHERE action = 'sign-in.failed' AND target = lower($1) AND created_at > now() - make_interval(secs => $3)
            AND created_at > COALESCE((SELECT max(created_at) FROM audit_events
                                       WHERE action = 'sign-in.succeeded' AND target = lower($1)), '-infinity')
          ORDER BY created_at DESC LIMIT $4) f
        HAVING count(*) >= $4) AS account,
       (SELECT min(created_at) FROM (
          SELECT created_at FROM audit_events
          WHERE action = 'sign-in.failed' AND ip = $2 AND created_at > now() - make_interval(secs => $3)
          ORDER BY created_at DESC LIMIT $5) f
        HAVING count(*) >= $5) AS address`,
    [email, ip, THROTTLE.windowSeconds, THROTTLE.perAccount, THROTTLE.perIp],
  );
  const oldest = [row.account, row.address].filter((d): d is Date => d !== null);
  if (oldest.length === 0) return { allowed: true };
  // Locked until the oldest of the counted failures leaves the window.
  const until = Math.max(...oldest.map((d) => d.getTime())) + THROTTLE.windowSeconds * 1000;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)) };
}

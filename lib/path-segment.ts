// Percent-encoded paths, decoded safely. Pure.
//
// A malformed escape (`%E0%A4%A`, an encoded lone surrogate) makes decodeURIComponent throw, and
// Next's own router fails such a URL with a bare 500 before any page or handler runs — so proxy.ts
// answers it first (wellFormedPath), and pages decode their segments here (lib/auth/page.ts).
import { hasNul } from "@/lib/validation";

/** The decoded segment, or null when it is malformed or decodes to a NUL (nothing we store has one). */
export function decodePathSegment(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return hasNul(decoded) ? null : decoded;
}

/** Whether every escape in a request path decodes; the path itself is left as it is. */
export function wellFormedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

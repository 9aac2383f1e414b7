// Percent-encoded paths, decoded safely. Pure.
//
// A malformed escape (`%E0%A4%A`, an encoded lone surrogate) makes decodeURIComponent throw, and
// Next's own router fails such a URL with a bare 500 before any page or handler runs — so the web
// process's listener answers it first (lib/http/page-address.ts), and pages and proxy.ts decode
// segments here.
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

// Where the browser may be sent after sign-in (or any other "come back here" parameter): only a
// path on this site. Pure, so every place that reads such a parameter — the sign-in page, the proxy
// building it, next-auth's redirect callback — gives the same answer.
//
// Checking the string by eye ("starts with / but not //") is not enough: browsers parse URLs by
// the WHATWG rules, which turn `\` into `/` and drop tabs and newlines, so `/\evil.example/x` and
// `/<TAB>/evil.example/x` both become `//evil.example/x` — another host. So the candidate is parsed
// the browser's way against a placeholder origin and kept only if it stays on that origin, and the
// result is rebuilt from the parsed URL (what the browser will actually request).

const PLACEHOLDER = "http://callback.invalid";
const MAX_LENGTH = 2048;

/** `raw` when it is a same-origin relative path (normalised as the browser would), else `fallback`. */
export function safeCallbackPath(raw: string | null | undefined, fallback = "/"): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH) return fallback;
  // Controls and backslashes are what the parser silently rewrites; a path our own pages build
  // never has them raw (they arrive percent-encoded), so anything carrying them is refused.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return fallback;
  if (!raw.startsWith("/") || raw.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can collapse into a leading `//` (`/.//evil.example` → `//evil.example`), and an
  // encoded slash or backslash first (`/%2F…`, `/%5C…`) becomes one for any code that decodes it.
  if (path.startsWith("//") || /^\/(%2f|%5c)/i.test(path)) return fallback;
  return path;
}

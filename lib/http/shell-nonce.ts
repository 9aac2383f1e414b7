import type { ServerResponse } from "node:http";
import zlib from "node:zlib";

// A page prerendered at build (a shell, app/[locale]/) is the same file for everyone, so it cannot
// carry the per-response nonce the Content-Security-Policy asks of every script and <style>. The web
// process's listener puts this response's nonce on them as it serves the file: the policy stays
// strict (no 'unsafe-inline', no hashes to keep in step with each build).

// The tags a policy with a nonce requires it on. Next escapes `<` inside its inline data
// (`\u003c`), so every match is a tag. Preloads of scripts are checked against script-src too.
const NEEDS_NONCE = /<(script|style)\b(?![^>]*\snonce=)|<link\b(?=[^>]*\sas="script")(?![^>]*\snonce=)/g;

/** `html` with `nonce` on every script, <style> and script preload that has none. */
export function withNonce(html: string, nonce: string): string {
  return html.replace(NEEDS_NONCE, (tag) => `${tag} nonce="${nonce}"`);
}

/** Next compresses before the listener sees the body: a held page is opened and closed again. */
const CODECS: Readonly<Record<string, readonly [(body: Buffer) => Buffer, (body: Buffer) => Buffer]>> = {
  gzip: [zlib.gunzipSync, zlib.gzipSync],
  deflate: [zlib.inflateSync, zlib.deflateSync],
  br: [zlib.brotliDecompressSync, zlib.brotliCompressSync],
};

function addNonce(body: Buffer, encoding: string, nonce: string): Buffer {
  const codec = encoding ? CODECS[encoding] : undefined;
  if (encoding && !codec) throw new Error(`a prerendered page sent with an unknown content-encoding: ${encoding}`);
  const html = withNonce((codec ? codec[0](body) : body).toString("utf8"), nonce);
  return codec ? codec[1](Buffer.from(html)) : Buffer.from(html);
}

/**
 * Whether a response is a prerendered page: HTML Next served from its build output (it marks those
 * with x-nextjs-cache or x-nextjs-prerender) rather than rendered for this request, which would carry
 * the nonce already.
 */
function isPrerenderedPage(res: ServerResponse): boolean {
  const type = String(res.getHeader("content-type") ?? "");
  return type.startsWith("text/html") && (res.hasHeader("x-nextjs-cache") || res.hasHeader("x-nextjs-prerender"));
}

/**
 * Holds a prerendered page's body until it ends, then sends it with the nonce on its tags (a shell is
 * tens of kilobytes; pages rendered per request stream through untouched). Such a response is made
 * for one request only: no validator to answer "not modified" with a body of another nonce, and no
 * shared cache.
 */
export function nonceOnPrerenderedPages(res: ServerResponse, nonce: string): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let held: Buffer[] | null | undefined; // undefined: not decided; null: passes through
  const decide = () => {
    if (held !== undefined) return;
    held = !res.headersSent && isPrerenderedPage(res) ? [] : null;
    if (held) {
      res.removeHeader("content-length");
      res.removeHeader("etag");
      res.removeHeader("last-modified");
      res.setHeader("cache-control", "private, no-cache");
    }
  };
  const hold = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    held!.push(typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array));
  };
  // Next sends the head before the body: decide there, with every header known (those given to
  // writeHead itself set first).
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const given = rest.at(-1);
    if (given && typeof given === "object" && !Array.isArray(given)) {
      for (const [name, value] of Object.entries(given)) if (value !== undefined) res.setHeader(name, value as string | string[]);
      rest = rest.slice(0, -1);
    }
    decide();
    return writeHead(status, ...rest);
  }) as ServerResponse["writeHead"];
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    decide();
    if (!held) return write(chunk, ...rest);
    hold(chunk, rest[0]);
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as ServerResponse["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    decide();
    if (!held) return end(chunk, ...rest);
    hold(chunk, rest[0]);
    const callback = [chunk, ...rest].find((arg) => typeof arg === "function");
    const body = res.req.method === "HEAD" ? "" : addNonce(Buffer.concat(held), String(res.getHeader("content-encoding") ?? ""), nonce);
    return callback ? end(body, callback) : end(body);
  }) as ServerResponse["end"];
}

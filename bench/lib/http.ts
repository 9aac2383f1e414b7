// Plain node:http requests on loopback, with a keep-alive agent sized for the benchmark's
// concurrency (fetch's pool would queue requests behind its own limits and blur the latencies).
import http from "node:http";

export interface Response {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly ms: number;
  /** Until the status line and headers arrived: the server's first byte, as a client sees it. */
  readonly firstByteMs: number;
}

export function agent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets });
}

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; agent?: http.Agent; timeoutMs?: number } = {},
): Promise<Response> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? "GET",
        headers: { ...options.headers, ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}) },
        agent: options.agent,
        timeout: options.timeoutMs ?? 60_000,
      },
      (res) => {
        const firstByteMs = performance.now() - start;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - start, firstByteMs }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${options.method ?? "GET"} ${url} timed out`)));
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The cookies a response sets, as name → value. */
export function setCookies(response: Response): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const line of response.headers["set-cookie"] ?? []) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    if (eq > 0) cookies[pair!.slice(0, eq).trim()] = pair!.slice(eq + 1).trim();
  }
  return cookies;
}

export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
}

/**
 * Signs in through next-auth's credentials flow, as the sign-in form does: the CSRF token, then the
 * credentials callback. Returns the Cookie header of the signed-in session.
 */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrf = await request(`${baseUrl}/api/auth/csrf`);
  if (csrf.status !== 200) throw new Error(`GET /api/auth/csrf answered ${csrf.status}`);
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookies = setCookies(csrf);
  const callback = await request(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(cookies) },
    body: new URLSearchParams({ csrfToken, email, password, json: "true", callbackUrl: `${baseUrl}/` }).toString(),
  });
  const session = { ...cookies, ...setCookies(callback) };
  const name = Object.keys(session).find((k) => k.endsWith("next-auth.session-token"));
  if (!name) throw new Error(`sign-in as ${email} gave no session cookie (status ${callback.status}: ${callback.body.slice(0, 200)})`);
  return cookieHeader({ [name]: session[name]! });
}

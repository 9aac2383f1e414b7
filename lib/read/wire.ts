import superjson from "superjson";

// How a read model travels from its route to the page: JSON that keeps what plain JSON loses (a
// Date stays a Date), so the page's components take the same types the server built. One encoding,
// both ends: the routes answer with readModelResponse, the browser's queries read with readModel.

export function readModelResponse(model: unknown): Response {
  // Order state is never cached by the browser or a proxy: the page's query decides when to ask again.
  return new Response(superjson.stringify(model), { headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

/** A read model route's answer; the error's code and status for anything else. */
export async function readModel<T>(url: string, signal?: AbortSignal): Promise<T> {
  return decodeModel<T>(await fetch(url, { signal, headers: { accept: "application/json" } }));
}

/**
 * What a route that also writes (an open page's presence poll) answers to a JSON POST, decoded as
 * readModel decodes a read; its refusals throw the same ReadError.
 */
export async function postModel<T>(url: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return decodeModel<T>(await fetch(url, { method: "POST", signal, headers: { accept: "application/json", "content-type": "application/json" }, body: JSON.stringify(body) }));
}

async function decodeModel<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new ReadError(response.status, errorCode(text));
  return superjson.parse<T>(text);
}

/** A refused or failed read: the page shows the styled page for its status (401, 403, 404, 503). */
export class ReadError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
  ) {
    super(`read answered ${status}${code ? ` (${code})` : ""}`);
    this.name = "ReadError";
  }
}

function errorCode(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof body.error?.code === "string" ? body.error.code : null;
  } catch {
    return null;
  }
}

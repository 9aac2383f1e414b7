import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { matchApiRoute, type ApiRoute, type Matched } from "@/lib/api/serve";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "@/lib/auth/client-address";
import { contentSecurityPolicy, newNonce, servedOverHttps, STRICT_TRANSPORT_SECURITY } from "@/lib/http/security-headers";
import { NOT_FOUND_PATH, wellFormedPath } from "@/lib/http/page-address";
import { nonceOnPrerenderedPages } from "@/lib/http/shell-nonce";
import STATIC_SECURITY_HEADERS from "@/lib/http/static-headers.json" with { type: "json" };

// The web process's request listener, in production and in `npm run dev` alike (lib/process/
// web-process.ts): the one place where what every request and response carries is written.
//
// For every request, before anything else sees it:
// - its id: the caller's x-request-id (short and printable), else a new one; on the request for the
//   handlers' logs, and echoed on the response, so a support ticket's screenshot can be matched to
//   the server's logs;
// - the caller's address (lib/auth/client-address.ts), decided from the socket, in a header the
//   client cannot supply: any copy it sent is deleted first;
// - the fixed security headers (lib/http/static-headers.json), the Content-Security-Policy with a
//   fresh nonce — set on the request too, where Next reads the nonce it puts on its scripts — and
//   HSTS when the request came over HTTPS.
// Then the integration API's key and store routes are answered here (lib/api/serve.ts), and
// everything else — pages, sign-in, server actions, static files, the routes a staff session calls —
// goes to Next, whose proxy.ts picks the page that answers an address (its locale, the one order
// shell) and sends a browser without a session to sign-in. A page Next serves from its build output
// gets this response's nonce on its scripts here (lib/http/shell-nonce.ts).

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Request headers only this listener may write: a client's copies are deleted, never believed. */
const OWN_REQUEST_HEADERS = [CLIENT_ADDRESS_HEADER, "content-security-policy", "content-security-policy-report-only"];
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const NOT_FOUND = JSON.stringify({ error: { code: "not-found", message: "Not found." } });

export interface ListenerOptions {
  /** `npm run dev`: the policy React's development build needs (lib/http/security-headers.ts). */
  readonly dev?: boolean;
}

export function webListener(routes: readonly ApiRoute[], next: NodeListener, options: ListenerOptions = {}): NodeListener {
  // Hono's Node adapter turns the Node request into a Fetch Request and the handler's Response back,
  // without replacing the global Request and Response that Next uses in the same process.
  const matched = new WeakMap<object, Matched>();
  const api = getRequestListener(
    (request, { incoming }) => {
      const { handler, params } = matched.get(incoming)!;
      return handler(request, { params: Promise.resolve(params) });
    },
    { overrideGlobalObjects: false },
  );
  return (req, res) => {
    for (const name of OWN_REQUEST_HEADERS) delete req.headers[name];
    const given = first(req.headers["x-request-id"]);
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    req.headers["x-request-id"] = requestId;
    const address = resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
    if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;

    const https = servedOverHttps(req.headers);
    const nonce = newNonce();
    const csp = contentSecurityPolicy(nonce, { dev: options.dev ?? false, https });
    req.headers["content-security-policy"] = csp;
    res.setHeader("x-request-id", requestId);
    for (const { key, value } of STATIC_SECURITY_HEADERS) res.setHeader(key, value);
    res.setHeader("content-security-policy", csp);
    if (https) res.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);

    const route = matchApiRoute(routes, req.method, req.url);
    if (route === null) {
      // A page address whose escapes do not decode names nothing, and Next's router fails on it with
      // a bare 500 (it decodes an address's segments for every page pattern it fits): Next is asked
      // for the not-found page instead; the browser keeps the address it asked for.
      if (!req.url?.startsWith("/api/") && !wellFormedPath((req.url ?? "/").split("?")[0]!)) req.url = NOT_FOUND_PATH;
      nonceOnPrerenderedPages(res, nonce);
      return next(req, res);
    }
    if (route === "malformed") {
      res.writeHead(404, { "content-type": "application/json" }).end(NOT_FOUND);
      return;
    }
    matched.set(req, route);
    void api(req, res);
  };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// Test helper: a real HTTP server on 127.0.0.1 standing in for a tenant's webhook receiver or grant
// endpoint. Records every request with its raw body; `respond` decides the status code.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startReceiver(respond: (request: ReceivedRequest) => number | Promise<number>): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(request);
      void Promise.resolve(respond(request)).then(
        (status) => res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "refused"),
        () => res.writeHead(500).end("receiver error"),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

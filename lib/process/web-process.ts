// One web process of `npm start` (a cluster worker of scripts/start.ts, lib/process/web-cluster.ts):
// Next's production server for the console, behind Node's own HTTP server so that the integration
// API's machine-to-machine routes skip Next's router (lib/api/serve.ts). This is Next's documented
// custom-server setup: `next({ dev: false })`, prepare(), then its request handler for every request
// the API listener does not take. In a cluster worker, listen() shares the primary's socket.
import http from "node:http";
import next from "next";
import { apiListener, loadApiRoutes } from "@/lib/api/serve";
import { logger } from "@/lib/log";

const port = Number(process.env.PORT ?? 3000);
const log = logger.child({ component: "web" });

const app = next({ dev: false, dir: process.cwd(), port });
await app.prepare();
// After prepare(): the routes read Next's request storage, which Next's server sets up. Its
// handlers would only log a failure here and keep a process that serves nothing: exit instead.
const routes = await loadApiRoutes().catch((error: unknown) => {
  log.fatal({ err: error }, "the integration API's routes could not be loaded");
  process.exit(1);
});
const server = http.createServer(apiListener(routes, app.getRequestHandler()));
server.listen(port, () => log.info({ port }, "web process serving"));

// Stop taking connections, let the requests in flight finish, then go.
process.once("SIGTERM", () => server.close(() => void app.close().finally(() => process.exit(0))));
process.once("SIGINT", () => server.close(() => void app.close().finally(() => process.exit(0))));

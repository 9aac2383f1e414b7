// One web process of `npm start` (a cluster worker of scripts/start.ts, lib/process/web-cluster.ts),
// and the one web process of `npm run dev`: Next's server for the console behind Node's own HTTP
// server, whose listener (lib/process/listener.ts) writes what every response carries and answers the
// integration API's machine-to-machine routes itself. This is Next's documented custom-server setup:
// `next({ dev })`, prepare(), then its request handler for everything the listener does not answer.
// In a cluster worker, listen() shares the primary's socket.
//
// In production this file runs compiled (scripts/build.mjs bundles it alone: the listener and its
// pure helpers). The API's handlers come from Next's own build, so lib/ is loaded once, by Next.
import http from "node:http";
import path from "node:path";
import next from "next";
import { routesFromBuild, routesFromSource } from "@/lib/api/serve";
import { logger } from "@/lib/log";
import { webListener } from "@/lib/process/listener";

const dev = process.env.ORDEROPS_DEV === "1";
const port = Number(process.env.PORT ?? 3000);
const log = logger.child({ component: "web" });

const app = next({ dev, dir: process.cwd(), port });
await app.prepare();
// After prepare(): the routes read Next's request storage, which Next's server sets up. Its
// handlers would only log a failure here and keep a process that serves nothing: exit instead.
const routes = await (dev ? routesFromSource() : routesFromBuild(path.resolve(process.env.NEXT_DIST_DIR || ".next"))).catch((error: unknown) => {
  log.fatal({ err: error }, "the integration API's routes could not be loaded");
  process.exit(1);
});
const server = http.createServer(webListener(routes, app.getRequestHandler(), { dev }));
// Development: Next's hot reloading talks over a WebSocket on the same port.
if (dev) server.on("upgrade", app.getUpgradeHandler());
server.listen(port, () => log.info({ port, dev }, "web process serving"));

// Stop taking connections, let the requests in flight finish, then go.
const stop = () => server.close(() => void app.close().finally(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

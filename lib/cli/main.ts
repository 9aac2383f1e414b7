// `npm run cli -- <command>`: the operator's command line. Each command lives in its own file.
import { Command } from "commander";
import { registerApiKey } from "./apikey-command";
import { registerAudit } from "./audit-command";
import { registerMigrate } from "./migrate-command";
import { registerSeed } from "./seed-command";
import { registerSimulate } from "./simulate-command";
import { registerUser } from "./user-command";

const program = new Command()
  .name("npm run cli --")
  .description("Order Ops command line. Without DATABASE_URL it works on the embedded database in .data/.")
  .showHelpAfterError();

registerMigrate(program);
registerSeed(program);
registerUser(program);
registerApiKey(program);
registerSimulate(program);
registerAudit(program);

await program.parseAsync(process.argv);

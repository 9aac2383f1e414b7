import type { Command } from "commander";
import { createApiKey, findApiKey, listApiKeys, revokeApiKey } from "@/lib/api/keys";
import { cliActor, runWithDatabase } from "./run";

export function registerApiKey(program: Command): void {
  const apikey = program.command("apikey").description("manage the integration API's keys (tenant-scoped, stored hashed)");

  apikey
    .command("create")
    .description("create a key; the key is printed alone on the last line of stdout, once")
    .requiredOption("--tenant <slug>", "the tenant the key acts for")
    .requiredOption("--name <name>", "who uses it, e.g. alipay-callbacks")
    .action((opts: { tenant: string; name: string }) =>
      runWithDatabase(async ({ out }) => {
        const { key, summary } = await createApiKey({ tenantId: opts.tenant, name: opts.name, actor: cliActor() });
        out(`created API key ${summary.prefix} "${summary.name}" for ${summary.tenantId}; store it now, it is not shown again:`);
        out(key);
      }),
    );

  apikey
    .command("list")
    .description("list keys (never the secrets)")
    .requiredOption("--tenant <slug>")
    .action((opts: { tenant: string }) =>
      runWithDatabase(async ({ out }) => {
        const keys = await listApiKeys([opts.tenant]);
        if (keys.length === 0) out(`no keys for ${opts.tenant}`);
        for (const k of keys) {
          out(`${k.prefix}  ${k.name}  created ${k.createdAt.toISOString()} by ${k.createdBy}  ${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : "active"}`);
        }
      }),
    );

  apikey
    .command("revoke")
    .description("revoke a key at once")
    .requiredOption("--tenant <slug>")
    .requiredOption("--prefix <prefix>", "the 12 characters after oo_")
    .action((opts: { tenant: string; prefix: string }) =>
      runWithDatabase(async ({ out }) => {
        // --tenant must match: a mistyped prefix that happens to exist elsewhere is not revoked.
        const key = await findApiKey(opts.prefix);
        if (!key || key.tenantId !== opts.tenant) throw new Error(`no API key ${opts.prefix} for ${opts.tenant}`);
        const { revoked } = await revokeApiKey(key, cliActor());
        out(revoked ? `revoked ${opts.prefix}` : `${opts.prefix} was already revoked`);
      }),
    );
}

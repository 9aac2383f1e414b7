import { Option, type Command } from "commander";
import { ROLES, type Role } from "@/lib/auth/permissions";
import { operator } from "@/lib/auth/staff-administrator";
import { createStaffUser, findStaffUserByEmail, generateStaffPassword, listStaffUsers, setStaffDisabled } from "@/lib/auth/users";
import { cliActor, runWithDatabase } from "./run";

// The CLI acts as the operator: whoever runs it holds the database anyway, so no tenant or role
// limit applies (lib/auth/staff-administrator.ts) — the same rules otherwise, and the same audit trail.

function parseTenants(value: string): string[] {
  return value
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
}

export function registerUser(program: Command): void {
  const user = program.command("user").description("manage staff accounts (the same rules and audit trail as the admin pages)");

  user
    .command("create")
    .description("create a staff account; without --password a strong one is generated and printed once")
    .requiredOption("--email <email>", "sign-in email (stored lowercase)")
    .addOption(new Option("--role <role>", "role").choices(ROLES).makeOptionMandatory())
    .requiredOption("--tenants <ids>", "comma-separated tenant ids the account may see, e.g. xiaoxiao,fangzhou")
    .option("--name <name>", "display name (default: the part of the email before @)")
    .option("--password <password>", "initial password (default: generated)")
    .action((opts: { email: string; role: Role; tenants: string; name?: string; password?: string }) =>
      runWithDatabase(async ({ out }) => {
        const password = opts.password ?? generateStaffPassword();
        const account = await createStaffUser(
          {
            email: opts.email,
            name: opts.name ?? opts.email.trim().split("@")[0] ?? opts.email,
            role: opts.role,
            tenantIds: parseTenants(opts.tenants),
            password,
          },
          operator(cliActor()),
        );
        out(`created ${account.role} ${account.email} (tenants: ${account.tenantIds.join(", ") || "none"})`);
        if (opts.password === undefined) out(`password: ${password}  (shown once: hand it over now)`);
      }),
    );

  user
    .command("list")
    .description("list staff accounts")
    .action(() =>
      runWithDatabase(async ({ out }) => {
        const accounts = await listStaffUsers(operator(cliActor()));
        if (accounts.length === 0) {
          out("no staff accounts yet (create one with: user create --email … --role admin --tenants …)");
          return;
        }
        const rows = accounts.map((a) => [a.email, a.role, a.tenantIds.join(",") || "-", a.disabledAt ? "disabled" : "active", a.name]);
        const header = ["EMAIL", "ROLE", "TENANTS", "STATUS", "NAME"];
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
        for (const row of [header, ...rows]) out(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd());
      }),
    );

  user
    .command("disable")
    .description("disable a staff account: it cannot sign in and its open sessions end at once")
    .requiredOption("--email <email>", "the account's email")
    .action((opts: { email: string }) =>
      runWithDatabase(async ({ out }) => {
        const account = await findStaffUserByEmail(opts.email);
        if (!account) throw new Error(`no staff user with the email ${opts.email.trim().toLowerCase()}`);
        const { changed } = await setStaffDisabled(account.id, true, operator(cliActor()));
        out(changed ? `disabled ${account.email}` : `${account.email} was already disabled`);
      }),
    );
}

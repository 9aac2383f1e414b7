import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { AppError, type PublicError } from "@/lib/errors";
import { toPublicError } from "@/lib/i18n/public-error";
import { browserLocale } from "@/lib/i18n/browser-locale";
import { logger } from "@/lib/log";
import { fieldProblems, nulProblems } from "@/lib/validation";
import { currentStaff } from "./current-staff";
import { can, type Permission } from "./permissions";
import { resolveScope, type ScopeRule } from "./scope";
import { actorOf, type Staff } from "./staff";

export type ActionResult<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly error: PublicError };

export interface ActionContext<R> {
  readonly staff: Staff;
  readonly actor: string;
  /** What the scope rule resolved: the order, the tenant, the staff account, … */
  readonly resource: R;
  readonly log: typeof logger;
}

export interface ActionSpec<S extends z.ZodType, R> {
  /** For logs and the audit trail: "orders.trigger-event". */
  readonly name: string;
  /** Required: an action cannot be built without naming what it needs. */
  readonly permission: Permission;
  readonly input: S;
  /** Required: what the action acts on, checked against the caller's tenant scope (lib/auth/scope.ts). */
  readonly scope: ScopeRule<z.output<S>, R>;
}

export type ServerAction<S extends z.ZodType, T> = ((input: z.input<S> | FormData) => Promise<ActionResult<T>>) & {
  readonly permission: Permission;
  readonly scopeKind: string;
  readonly actionName: string;
};

/**
 * The one way to write a server action: who is calling (a live session), may they (the permission
 * table), is the input valid (zod), is what they ask for within their tenant scope — in that order,
 * before `run` sees anything. Refusals are audited; errors reach the browser in the caller's
 * language, and unexpected ones only as a reference to the logs.
 */
export function defineAction<S extends z.ZodType, R, T>(
  spec: ActionSpec<S, R>,
  run: (input: z.output<S>, ctx: ActionContext<R>) => Promise<T>,
): ServerAction<S, T> {
  const action = async (raw: z.input<S> | FormData): Promise<ActionResult<T>> => {
    const reference = randomUUID();
    const log = logger.child({ action: spec.name, reference });
    let staff: Staff | null = null;
    try {
      staff = await currentStaff();
      if (!staff) throw new AppError("unauthenticated");
      if (!can(staff.role, spec.permission)) {
        await audit({ actor: actorOf(staff), action: "access.denied", target: spec.name, detail: { permission: spec.permission, role: staff.role } });
        throw new AppError("forbidden");
      }
      const input: unknown = raw instanceof FormData ? Object.fromEntries(raw) : raw;
      const nul = nulProblems(input);
      if (nul) throw new AppError("invalid-input", undefined, { fields: nul });
      const parsed = spec.input.safeParse(input);
      if (!parsed.success) throw new AppError("invalid-input", undefined, { fields: fieldProblems(parsed.error) });
      const resource = await resolveScope(spec.scope, parsed.data, staff);
      const data = await run(parsed.data, { staff, actor: actorOf(staff), resource, log: log.child({ staff: staff.email }) });
      return { ok: true, data };
    } catch (error) {
      const publicError = toPublicError(error, reference, staff?.locale ?? (await browserLocale()));
      if (publicError.code === "internal") log.error({ err: error }, "server action failed");
      if (publicError.code === "unavailable") log.warn({ err: error }, "database unavailable");
      return { ok: false, error: publicError };
    }
  };
  return Object.assign(action, { permission: spec.permission, scopeKind: spec.scope.kind, actionName: spec.name });
}

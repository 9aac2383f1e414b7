import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { AppError, toPublicError, type PublicError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { currentStaff } from "./current-staff";
import { can, type Permission } from "./permissions";
import { actorOf, type Staff } from "./staff";

export type ActionResult<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly error: PublicError };

export interface ActionContext {
  readonly staff: Staff;
  readonly actor: string;
  readonly log: typeof logger;
}

export interface ActionSpec<S extends z.ZodType> {
  /** For logs and the audit trail: "orders.trigger-event". */
  readonly name: string;
  /** Required: an action cannot be built without naming what it needs. */
  readonly permission: Permission;
  readonly input: S;
}

export type ServerAction<S extends z.ZodType, T> = ((input: z.input<S> | FormData) => Promise<ActionResult<T>>) & {
  readonly permission: Permission;
  readonly actionName: string;
};

/**
 * The one way to write a server action: who is calling (a live session), may they (the permission
 * table), is the input valid (zod) — in that order, before `run` sees anything. Refusals are
 * audited; unexpected errors are logged with a reference and never shown raw.
 */
export function defineAction<S extends z.ZodType, T>(
  spec: ActionSpec<S>,
  run: (input: z.output<S>, ctx: ActionContext) => Promise<T>,
): ServerAction<S, T> {
  const action = async (raw: z.input<S> | FormData): Promise<ActionResult<T>> => {
    const reference = randomUUID();
    const log = logger.child({ action: spec.name, reference });
    try {
      const staff = await currentStaff();
      if (!staff) throw new AppError("unauthenticated");
      if (!can(staff.role, spec.permission)) {
        await audit({ actor: actorOf(staff), action: "access.denied", target: spec.name, detail: { permission: spec.permission, role: staff.role } });
        throw new AppError("forbidden");
      }
      const parsed = spec.input.safeParse(raw instanceof FormData ? Object.fromEntries(raw) : raw);
      if (!parsed.success) {
        throw new AppError("invalid-input", undefined, { fields: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> });
      }
      const data = await run(parsed.data, { staff, actor: actorOf(staff), log: log.child({ staff: staff.email }) });
      return { ok: true, data };
    } catch (error) {
      if (!(error instanceof AppError) || error.code === "internal") log.error({ err: error }, "server action failed");
      return { ok: false, error: toPublicError(error, reference) };
    }
  };
  return Object.assign(action, { permission: spec.permission, actionName: spec.name });
}

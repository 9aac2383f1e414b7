// What the admins' security log can be asked, read from its search params. Pure: no I/O.
import { z } from "zod";
import { cursor, instant, optional, parseSearch, searchQuery, type ParsedSearch } from "./filters";
import { actionsOfKind, SECURITY_ACTIONS, SECURITY_KINDS, type SecurityKind } from "./kinds";

/** A kind (every sign-in fact) or one action (only lockouts). */
export const SECURITY_CHOICES = [...SECURITY_KINDS, ...SECURITY_ACTIONS] as const;

export const securityFilterInput = z.object({
  action: optional(z.enum(SECURITY_CHOICES)),
  // An email or an actor: matches who did it and whom it was about (the account signing in, the
  // staff account changed).
  who: optional(z.string().trim().max(200)),
  ip: optional(z.string().trim().regex(/^[0-9A-Fa-f:.]{2,45}$/)),
  from: optional(instant),
  to: optional(instant),
  after: optional(cursor),
  before: optional(cursor),
});

export type SecurityFilters = Omit<z.output<typeof securityFilterInput>, "after" | "before">;
type Field = keyof z.input<typeof securityFilterInput>;
export type ParsedSecuritySearch = ParsedSearch<Field, SecurityFilters>;

export function parseSecuritySearch(params: Readonly<Record<string, string | string[] | undefined>>): ParsedSecuritySearch {
  return parseSearch<typeof securityFilterInput.shape, SecurityFilters>(securityFilterInput.shape, params);
}

const FIELDS = Object.keys(securityFilterInput.shape) as Field[];

export function securityQuery(raw: ParsedSecuritySearch["raw"], extra: Readonly<Record<string, string>> = {}): string {
  return searchQuery(Object.fromEntries(FIELDS.map((f) => [f, raw[f]])), extra);
}

/** The actions a choice covers. */
export function securityActions(action: SecurityFilters["action"]): readonly string[] {
  if (action === undefined) return SECURITY_ACTIONS;
  return (SECURITY_KINDS as readonly string[]).includes(action) ? actionsOfKind(action as SecurityKind) : [action];
}

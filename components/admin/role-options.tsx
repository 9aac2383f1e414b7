import { ROLES, type Role } from "@/lib/auth/permissions";

// What each role is for, in the words of DESIGN.md, so the choice is made knowingly.
const ROLE_LABELS: Readonly<Record<Role, string>> = {
  agent: "agent — find orders, request refunds, close unpaid orders",
  ops: "ops — agent, plus payments, delivery, grants and bulk repair",
  manager: "manager — ops, plus audit, refund approval and settings",
  admin: "admin — staff accounts and API keys (no order events)",
};

export function RoleOptions() {
  return (
    <>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </>
  );
}

import "server-only";
import { found, missing, outOfScope, type ScopeRule } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { viewAccess } from "./access";
import { findView, type SavedView } from "./saved-views";

// The scope rule of a saved view (lib/auth/scope.ts says what a scope rule is), beside who may see
// and change a view (access.ts): lib/views builds on lib/auth, not the other way round.

/**
 * A saved view of the orders list the caller may change (rename, delete): their own, or a shared view
 * of one of their products when they may manage shared views (lib/views/access.ts). Someone else's
 * personal view and a view of another product answer like missing (audited); a shared view the
 * caller sees but did not save is forbidden, naming who did.
 */
export function savedViewScope<I>(pick: (input: I) => number): ScopeRule<I, SavedView> {
  return {
    kind: "saved-view",
    target: (input) => `view:${pick(input)}`,
    async resolve(input, staff) {
      const view = await findView(pick(input));
      if (!view) return missing();
      switch (viewAccess(view, staff)) {
        case "edit":
          return found(view);
        case "see":
          return { ok: false, error: new AppError("forbidden", { kind: "view-not-yours", creator: view.ownerActor.replace(/^staff:/, "") }), denied: "shared view saved by someone else" };
        case "out-of-scope":
          return outOfScope("tenant out of scope");
        case "someone-else":
          return outOfScope("another staff member's personal view");
      }
    },
  };
}

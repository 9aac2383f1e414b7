import { describe, expect, it } from "vitest";
import { PAST_DEADLINE } from "@/lib/stores/reviews/model";
import { authorizationProblemOf, describeAuthorizationProblem, type AuthorizationProblem } from "./server-api-authorization";

// The relay stores a key problem as an English sentence (the logs read it); the review page reads
// the same sentence back as data to word it for its reader. Every kind must survive the round trip,
// and every other error must stay unread, to be shown as recorded.

const PROBLEMS: readonly AuthorizationProblem[] = [
  { kind: "key-not-configured" },
  { kind: "key-invalid", field: "privateKeyPath" },
  // Fields as the key check names them: several unrecognised keys, or a whole entry.
  { kind: "key-invalid", field: "keyId, bundle" },
  { kind: "key-invalid", field: "(entry)" },
  { kind: "app-not-connected" },
  { kind: "key-unusable" },
];

describe("authorizationProblemOf", () => {
  it.each(PROBLEMS)("reads back the reason stored for %o", (problem) => {
    expect(authorizationProblemOf(describeAuthorizationProblem(problem))).toEqual(problem);
  });

  it("reads the reasons already stored on reviews", () => {
    expect(authorizationProblemOf("App Store Server API key not configured for this tenant (APPLE_STORE_API_KEYS)")).toEqual({ kind: "key-not-configured" });
  });

  it.each(["HTTP 401: refused", "HTTP 503", "timed out after 10000 ms", "fetch failed", PAST_DEADLINE, ""])("leaves %j to be shown as recorded", (error) => {
    expect(authorizationProblemOf(error)).toBeNull();
  });
});

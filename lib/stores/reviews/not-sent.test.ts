import { describe, expect, it } from "vitest";
import { describeAuthorizationProblem } from "@/lib/stores/apple/server-api-authorization";
import { PAST_DEADLINE } from "./model";
import { notSentReason } from "./not-sent";

describe("notSentReason", () => {
  it("reads a passed deadline and a key problem as data", () => {
    expect(notSentReason(PAST_DEADLINE)).toEqual({ kind: "past-deadline" });
    expect(notSentReason(describeAuthorizationProblem({ kind: "key-invalid", field: "keyId" }))).toEqual({ kind: "key-invalid", field: "keyId" });
  });

  it.each(["HTTP 401: refused", "timed out after 10000 ms", ""])("leaves %j to be shown as recorded", (error) => {
    expect(notSentReason(error)).toBeNull();
  });
});

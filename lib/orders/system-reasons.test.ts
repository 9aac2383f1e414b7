import { describe, expect, it } from "vitest";
import { GRANTED_BY_ENDPOINT_REASON, systemReason, unpaidTimeoutReason } from "./system-reasons";

describe("systemReason", () => {
  it("reads back what the system wrote, as data", () => {
    expect(systemReason("system:timeout-close", unpaidTimeoutReason(900))).toEqual({ kind: "unpaid-timeout", seconds: 900 });
    expect(systemReason("system:delivery", GRANTED_BY_ENDPOINT_REASON)).toEqual({ kind: "granted-by-endpoint" });
  });

  it("leaves a person's words as they typed them, even the same words", () => {
    expect(systemReason("staff:agent@example.com", unpaidTimeoutReason(900))).toBeNull();
    expect(systemReason("system:timeout-close", "something else")).toBeNull();
    expect(systemReason("system:timeout-close", null)).toBeNull();
  });
});

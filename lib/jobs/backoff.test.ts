import { describe, expect, it } from "vitest";
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffMs } from "./backoff";

describe("backoffMs", () => {
  it("doubles from the base and stays in the upper half of each step", () => {
    expect(backoffMs(1, () => 0)).toBe(BACKOFF_BASE_MS / 2);
    expect(backoffMs(1, () => 1)).toBe(BACKOFF_BASE_MS);
    expect(backoffMs(2, () => 1)).toBe(2 * BACKOFF_BASE_MS);
    expect(backoffMs(5, () => 1)).toBe(16 * BACKOFF_BASE_MS);
    expect(backoffMs(5, () => 0)).toBe(8 * BACKOFF_BASE_MS);
  });

  it("never passes the cap, however many failures", () => {
    for (const failures of [12, 13, 40, 1000]) {
      expect(backoffMs(failures, () => 1)).toBe(BACKOFF_CAP_MS);
      expect(backoffMs(failures, () => 0)).toBe(BACKOFF_CAP_MS / 2);
    }
  });
});

import { describe, expect, it } from "vitest";
import { fieldProblems } from "@/lib/validation";
import { durationInput, DWELL_BOUNDS } from "./durations";

describe("durations", () => {
  it("turns a number and a unit into seconds, within bounds, with problems that carry the bound", () => {
    const paid = durationInput(DWELL_BOUNDS.paid);
    const problems = (value: unknown) => {
      const parsed = paid.safeParse(value);
      return parsed.success ? null : Object.values(fieldProblems(parsed.error)).flat();
    };
    expect(paid.parse({ value: "5", unit: "minutes" })).toBe(300);
    expect(problems({ value: "30", unit: "seconds" })).toEqual([{ kind: "duration-too-short", seconds: 60 }]);
    expect(problems({ value: 8, unit: "days" })).toEqual([{ kind: "duration-too-long", seconds: 7 * 86_400 }]);
    expect(problems({ value: "1.5", unit: "hours" })).toEqual([{ kind: "not-whole" }]);
    expect(problems({ value: "-1", unit: "hours" })).toEqual([{ kind: "too-small", min: 1 }]);
    expect(problems({ value: "abc", unit: "hours" })).toEqual([{ kind: "not-a-number" }]);
    expect(problems({ value: "5", unit: "weeks" })).toEqual([{ kind: "invalid-choice", options: ["seconds", "minutes", "hours", "days"] }]);
  });
});

import { describe, expect, it } from "vitest";
import { fieldProblems } from "@/lib/validation";
import { bestUnit, durationInput, DWELL_BOUNDS } from "./durations";

describe("durations", () => {
  it("shows a value in the largest whole unit", () => {
    expect(bestUnit(300)).toEqual({ value: 5, unit: "minutes" });
    expect(bestUnit(90)).toEqual({ value: 90, unit: "seconds" });
    expect(bestUnit(3 * 86_400)).toEqual({ value: 3, unit: "days" });
    expect(bestUnit(5_400)).toEqual({ value: 90, unit: "minutes" });
  });

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

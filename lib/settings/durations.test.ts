import { describe, expect, it } from "vitest";
import { bestUnit, describeSeconds, durationInput, DWELL_BOUNDS } from "./durations";

describe("durations", () => {
  it("shows a value in the largest whole unit", () => {
    expect(bestUnit(300)).toEqual({ value: 5, unit: "minutes" });
    expect(bestUnit(90)).toEqual({ value: 90, unit: "seconds" });
    expect(bestUnit(3 * 86_400)).toEqual({ value: 3, unit: "days" });
    expect(bestUnit(5_400)).toEqual({ value: 90, unit: "minutes" });
    expect(describeSeconds(86_400)).toBe("1 day");
  });

  it("turns a number and a unit into seconds, within bounds, with messages naming the field", () => {
    const paid = durationInput("Paid", DWELL_BOUNDS.paid);
    expect(paid.parse({ value: "5", unit: "minutes" })).toBe(300);
    expect(paid.safeParse({ value: "30", unit: "seconds" }).error?.issues[0]?.message).toBe("Paid: at least 1 minute.");
    expect(paid.safeParse({ value: 8, unit: "days" }).error?.issues[0]?.message).toBe("Paid: at most 7 days.");
    expect(paid.safeParse({ value: "1.5", unit: "hours" }).error?.issues[0]?.message).toBe(
      "Paid: enter a whole number (pick a smaller unit for finer values).",
    );
    expect(paid.safeParse({ value: "-1", unit: "hours" }).error?.issues[0]?.message).toBe("Paid: must be more than 0.");
    expect(paid.safeParse({ value: "abc", unit: "hours" }).error?.issues[0]?.message).toBe("Paid: enter a number.");
    expect(paid.safeParse({ value: "5", unit: "weeks" }).error?.issues[0]?.message).toBe("Paid: choose seconds, minutes, hours or days.");
  });
});

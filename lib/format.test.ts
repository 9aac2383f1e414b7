import { describe, expect, it } from "vitest";
import { bestUnit, formatMoney, formatRelative, parseMoney, wholeUnit } from "./format";

describe("money", () => {
  it("formats integer minor units in the reader's language, the console's locale or an Intl one alike", () => {
    expect(formatMoney(12_800, "CNY", "en")).toBe("CN¥128.00");
    expect(formatMoney(1_450, "CNY", "en-US")).toBe("CN¥14.50");
    expect(formatMoney(12_800, "CNY", "zh")).toBe("¥128.00");
    expect(formatMoney(1_450, "CNY", "zh-CN")).toBe("¥14.50");
  });

  it("parses what people type into minor units, exactly", () => {
    expect(parseMoney("128")).toBe(12_800);
    expect(parseMoney("128.5")).toBe(12_850);
    expect(parseMoney(" 0.07 ")).toBe(7);
    expect(parseMoney("19.99")).toBe(1_999);
  });

  it("refuses what is not an amount", () => {
    for (const text of ["", "abc", "1.234", "-5", "1,000", "1e3", "12."]) expect(parseMoney(text)).toBeNull();
  });
});

describe("spans of time", () => {
  const DAY = 86_400;

  it("a set duration shows in the largest unit it is a whole number of", () => {
    expect(bestUnit(300)).toEqual({ value: 5, unit: "minutes" });
    expect(bestUnit(90)).toEqual({ value: 90, unit: "seconds" });
    expect(bestUnit(3 * 86_400)).toEqual({ value: 3, unit: "days" });
    expect(bestUnit(5_400)).toEqual({ value: 90, unit: "minutes" });
  });

  it("are their largest whole unit, rounded down: 5 days 14 hours is 5 days, not 6", () => {
    expect(wholeUnit(5 * DAY + 14 * 3_600)).toEqual({ unit: "day", count: 5 });
    expect(wholeUnit(10 * 3_600 + 59 * 60)).toEqual({ unit: "hour", count: 10 });
    expect(wholeUnit(-(10 * 3_600 + 59 * 60))).toEqual({ unit: "hour", count: 10 });
    expect(wholeUnit(59.9)).toEqual({ unit: "second", count: 59 });
    expect(wholeUnit(0)).toEqual({ unit: "second", count: 0 });
  });

  it("read as an age or a time ahead with the same number as the span", () => {
    expect(formatRelative(5 * DAY + 14 * 3_600, "en")).toBe("5 days ago");
    expect(formatRelative(-(10 * 3_600 + 59 * 60), "en")).toBe("in 10 hours");
    expect(formatRelative(5, "en")).toBe("5 seconds ago");
    expect(formatRelative(0.4, "en")).toBe("now");
    expect(formatRelative(-0.4, "en")).toBe("now");
    expect(formatRelative(5 * DAY + 14 * 3_600, "zh")).toBe("5天前");
    expect(formatRelative(-(10 * 3_600 + 59 * 60), "zh-CN")).toBe("10小时后");
  });

  it("a day and a half back is '1 day ago', never 'yesterday' beside a date that says otherwise", () => {
    expect(formatRelative(1.5 * DAY, "en")).toBe("1 day ago");
  });
});

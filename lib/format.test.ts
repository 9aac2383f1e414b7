import { describe, expect, it } from "vitest";
import { formatMoney, parseMoney } from "./format";

describe("money", () => {
  it("formats integer minor units", () => {
    expect(formatMoney(12_800, "CNY")).toBe("CN¥128.00");
    expect(formatMoney(1_450, "CNY")).toBe("CN¥14.50");
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

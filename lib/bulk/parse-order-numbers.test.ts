import { describe, expect, it } from "vitest";
import { parseOrderNumbers } from "./parse-order-numbers";

describe("parseOrderNumbers", () => {
  it("reads one per line, trims, drops blanks and repeats", () => {
    expect(parseOrderNumbers(" XX1 \n\nXX2\r\nXX1\n")).toEqual({ orderNos: ["XX1", "XX2"], duplicates: 1 });
  });

  it("takes the first column of a CSV and skips its header", () => {
    const csv = 'order_no,player,note\n"FZ-100",p1,"late, very"\nFZ-101,p2,\n';
    expect(parseOrderNumbers(csv)).toEqual({ orderNos: ["FZ-100", "FZ-101"], duplicates: 0 });
  });

  it("accepts tab- and semicolon-separated exports", () => {
    expect(parseOrderNumbers("orderNo\tx\nA1\tfoo\nA2;bar").orderNos).toEqual(["A1", "A2"]);
  });

  it("returns nothing for empty input", () => {
    expect(parseOrderNumbers("  \n ")).toEqual({ orderNos: [], duplicates: 0 });
  });
});

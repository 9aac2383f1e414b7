import { describe, expect, it } from "vitest";
import { DEMO_CATALOG } from "../demo-catalog";
import { DEMO_TENANTS } from "../tenants";
import { catalogRows, stalledDelivery, TENANT_ORDER } from "./catalog-rows";

const PACK = {
  code: "pack",
  price: 30_00,
  weight: 1000,
  lines: [
    { sku: "gems", kind: "currency", quantity: 60 },
    { sku: "badge", kind: "cosmetic", quantity: 1 },
    { sku: "potion", kind: "stamina", quantity: 5 },
  ],
} as const;

describe("stalledDelivery", () => {
  it("external: the game server granted half of the first line, and transit() refuses confirm-delivery with what is pending", () => {
    const stalled = stalledDelivery(PACK, "external", "CNY");
    expect(stalled.lines.map((l) => [l.sku, l.granted])).toEqual([
      ["badge", 0],
      ["gems", 30],
      ["potion", 0],
    ]);
    expect(stalled.refusal).toEqual({
      kind: "lines-pending",
      lines: [
        { sku: "badge", granted: 0, expected: 1 },
        { sku: "gems", granted: 30, expected: 60 },
        { sku: "potion", granted: 0, expected: 5 },
      ],
    });
  });

  it("managed: the coordinator granted whole lines in sku order and failed on the second", () => {
    const stalled = stalledDelivery(PACK, "managed", "CNY");
    expect(stalled.lines.map((l) => [l.sku, l.granted])).toEqual([
      ["badge", 1],
      ["gems", 0],
      ["potion", 0],
    ]);
    expect(stalled.stallSku).toBe("gems");
    // A one-line pack fails on its only line, with nothing granted.
    const single = stalledDelivery({ ...PACK, lines: [PACK.lines[0]] }, "managed", "CNY");
    expect(single.stallSku).toBe("gems");
    expect(single.lines.map((l) => l.granted)).toEqual([0]);
  });
});

describe("catalogRows", () => {
  it("delivers each demo tenant the way its settings say", () => {
    for (const id of TENANT_ORDER) {
      expect({ id, mode: DEMO_CATALOG[id].delivery.mode }).toEqual({ id, mode: DEMO_TENANTS.find((t) => t.id === id)!.deliveryMode });
    }
  });

  it("marks the lines the coordinator granted before a stall, and places its grants in sku order", () => {
    const { lines } = catalogRows({ xiaoxiao: "CNY", fangzhou: "CNY" });
    const supply = lines.filter((l) => l.t === 2 && l.product === 3);
    expect(supply.map((l) => [l.sku, l.before_stall, l.first_off, l.last_off, l.pos_scale])).toEqual([
      ["crystal", true, 0, 2 / 3, 1 / 3],
      ["skin-vanguard", false, 2 / 3, 0, 1 / 3],
      ["sanity-potion", false, 1 / 3, 1 / 3, 1 / 3],
    ]);
    // The game server's grants fall anywhere in the window, as they always did.
    expect(lines.filter((l) => l.t === 1).every((l) => !l.before_stall && l.first_off === 0 && l.last_off === 0 && l.pos_scale === 1)).toBe(true);
  });
});

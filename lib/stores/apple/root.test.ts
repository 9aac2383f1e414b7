import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { APPLE_ROOT_CA_G3_PEM } from "./root";

describe("the pinned Apple root", () => {
  it("is Apple Root CA - G3, by the fingerprint Apple publishes", () => {
    const root = new X509Certificate(APPLE_ROOT_CA_G3_PEM);
    expect(root.fingerprint256).toBe("63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79");
    expect(root.subject).toContain("CN=Apple Root CA - G3");
    expect(root.verify(root.publicKey)).toBe(true);
  });
});

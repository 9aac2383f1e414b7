// Verifies an App Store signed payload (JWS, ES256, with its certificate chain in the x5c header) the
// way Apple's own library does, with online revocation checks off: the chain is exactly leaf,
// intermediate and root; the root is byte-identical to a pinned root; each certificate is signed by
// the next; the intermediate is a CA; leaf and intermediate carry Apple's App Store marker extensions;
// every certificate is valid at the payload's signedDate (Apple's rule without online checks, so a
// retried or replayed-for-repair notification still verifies after the leaf rolls over); and the
// payload's signature verifies with the leaf's key. No I/O: the roots are handed in, so tests pin a
// root of their own and production pins Apple's (root.ts).
import { X509Certificate } from "node:crypto";
import { compactVerify, decodeProtectedHeader } from "jose";
import type { StoreSignatureFailure } from "@/lib/problems";

export type Verified = { readonly ok: true; readonly payload: Record<string, unknown> } | { readonly ok: false; readonly reason: StoreSignatureFailure };

/** 1.2.840.113635.100.6.11.1: only certificates Apple issues to sign App Store payloads carry it. */
const APP_STORE_LEAF_OID = "1.2.840.113635.100.6.11.1";
/** 1.2.840.113635.100.6.2.1: Apple's WWDR intermediate that issues them. */
const APPLE_INTERMEDIATE_OID = "1.2.840.113635.100.6.2.1";

/** An OID as its DER encoding (tag, length, base-128 arcs): what to look for in a certificate's extensions. */
export function derOid(oid: string): Buffer {
  const arcs = oid.split(".").map(Number);
  const bytes = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const chunk = [arc & 0x7f];
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) chunk.unshift((rest & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return Buffer.from([0x06, bytes.length, ...bytes]);
}

const LEAF_MARKER = derOid(APP_STORE_LEAF_OID);
const INTERMEDIATE_MARKER = derOid(APPLE_INTERMEDIATE_OID);

/** node:crypto does not list arbitrary extensions; an OID's encoding inside the DER is how Apple's marker shows. */
function carries(cert: X509Certificate, marker: Buffer): boolean {
  return cert.raw.includes(marker);
}

function validAt(cert: X509Certificate, at: Date): boolean {
  return Date.parse(cert.validFrom) <= at.getTime() && at.getTime() <= Date.parse(cert.validTo);
}

function unverifiedPayload(jws: string): Record<string, unknown> | null {
  try {
    const part = jws.split(".")[1];
    if (!part) return null;
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function verifySigned(jws: string, roots: readonly X509Certificate[], now: Date): Promise<Verified> {
  const fail = (reason: StoreSignatureFailure): Verified => ({ ok: false, reason });
  if (typeof jws !== "string" || jws.split(".").length !== 3) return fail("malformed");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    return fail("malformed");
  }
  if (header.alg !== "ES256") return fail("algorithm");
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || x5c.length !== 3) return fail("chain-length");
  let chain: X509Certificate[];
  try {
    chain = x5c.map((der) => new X509Certificate(Buffer.from(der, "base64")));
  } catch {
    return fail("malformed");
  }
  const [leaf, intermediate, root] = chain as [X509Certificate, X509Certificate, X509Certificate];
  if (!roots.some((r) => r.raw.equals(root.raw))) return fail("untrusted-root");
  if (!intermediate.checkIssued(root) || !intermediate.verify(root.publicKey)) return fail("chain-broken");
  if (!leaf.checkIssued(intermediate) || !leaf.verify(intermediate.publicKey)) return fail("chain-broken");
  if (!intermediate.ca || leaf.ca) return fail("not-a-ca");
  if (!carries(leaf, LEAF_MARKER) || !carries(intermediate, INTERMEDIATE_MARKER)) return fail("not-app-store-certificate");

  const claimed = unverifiedPayload(jws);
  if (!claimed) return fail("malformed");
  // Apple's rule with online checks off: validity at the payload's signedDate when it has one.
  const signedDate = typeof claimed.signedDate === "number" ? new Date(claimed.signedDate) : now;
  if (!chain.every((c) => validAt(c, signedDate))) return fail("expired");
  try {
    const { payload } = await compactVerify(jws, leaf.publicKey, { algorithms: ["ES256"] });
    const decoded: unknown = JSON.parse(new TextDecoder().decode(payload));
    if (typeof decoded !== "object" || decoded === null || Array.isArray(decoded)) return fail("malformed");
    return { ok: true, payload: decoded as Record<string, unknown> };
  } catch {
    return fail("signature");
  }
}

// A stand-in App Store for tests: a root, an intermediate and a leaf generated here (ECDSA P-256,
// with Apple's marker extensions where Apple puts them), and notifications signed with them exactly
// as Apple signs its own (ES256 JWS, the chain in x5c). The production code trusts this root only
// under the test runner (lib/stores/apple/trusted-roots.ts).
import { KeyObject, randomUUID, webcrypto } from "node:crypto";
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill first.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { CompactSign } from "jose";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const LEAF_OID = "1.2.840.113635.100.6.11.1";
const INTERMEDIATE_OID = "1.2.840.113635.100.6.2.1";
/** An extension's value: DER NULL, as Apple's markers carry. */
const DER_NULL = new Uint8Array([0x05, 0x00]);

export interface TestAppleChain {
  readonly rootPem: string;
  /** x5c: leaf, intermediate, root (base64 DER). */
  readonly x5c: readonly string[];
  readonly leafKey: KeyObject;
}

async function keys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as CryptoKeyPair;
}

const b64 = (cert: x509.X509Certificate) => Buffer.from(cert.rawData).toString("base64");

/** A fresh chain; `markers: false` leaves Apple's extensions out (a well-formed chain that is no App Store certificate). */
export async function testAppleChain(options: { markers?: boolean; name?: string } = {}): Promise<TestAppleChain> {
  const markers = options.markers ?? true;
  const name = options.name ?? "Test";
  const notBefore = new Date(Date.UTC(2020, 0, 1));
  const notAfter = new Date(Date.UTC(2040, 0, 1));
  const rootKeys = await keys();
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: `CN=${name} Root CA`,
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: ALG,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  const intermediateKeys = await keys();
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: "02",
    subject: `CN=${name} Intermediate`,
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: intermediateKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ...(markers ? [new x509.Extension(INTERMEDIATE_OID, false, DER_NULL)] : []),
    ],
  });
  const leafKeys = await keys();
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: "03",
    subject: `CN=${name} App Store Signing`,
    issuer: intermediate.subject,
    notBefore,
    notAfter,
    publicKey: leafKeys.publicKey,
    signingKey: intermediateKeys.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(markers ? [new x509.Extension(LEAF_OID, false, DER_NULL)] : []),
    ],
  });
  return { rootPem: root.toString("pem"), x5c: [b64(leaf), b64(intermediate), b64(root)], leafKey: KeyObject.from(leafKeys.privateKey) };
}

/** Signs `payload` as the App Store does. */
export async function signAsApple(chain: TestAppleChain, payload: unknown, header: Record<string, unknown> = {}): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: "ES256", x5c: [...chain.x5c], ...header })
    .sign(chain.leafKey);
}

export interface TestNotification {
  readonly type: string;
  readonly subtype?: string;
  readonly uuid?: string;
  /** signedDate, ms since the epoch. */
  readonly signedAt: number;
  readonly transactionId?: string;
  readonly originalTransactionId?: string;
  readonly bundleId?: string;
  readonly environment?: string;
  /** The app's account token on the signed transaction. */
  readonly appAccountToken?: string;
  /** A REFUND of part of the purchase: revocationType REFUND_PRORATED with this revocationPercentage (milliunits). */
  readonly proratedMilliPercent?: number;
}

/** The body Apple posts for one notification: `{ signedPayload }`, its transaction signed inside it. */
export async function appleNotificationBody(chain: TestAppleChain, n: TestNotification): Promise<{ signedPayload: string }> {
  const bundleId = n.bundleId ?? "com.example.game";
  const environment = n.environment ?? "Sandbox";
  const signedTransactionInfo = n.transactionId
    ? await signAsApple(chain, {
        transactionId: n.transactionId,
        originalTransactionId: n.originalTransactionId ?? n.transactionId,
        bundleId,
        productId: "gems.60",
        quantity: 1,
        type: "Consumable",
        environment,
        signedDate: n.signedAt,
        ...(n.appAccountToken ? { appAccountToken: n.appAccountToken } : {}),
        ...(n.type === "REFUND" ? { revocationDate: n.signedAt, revocationReason: 0, revocationType: "REFUND_FULL" } : {}),
        ...(n.type === "REFUND" && n.proratedMilliPercent !== undefined ? { revocationType: "REFUND_PRORATED", revocationPercentage: n.proratedMilliPercent } : {}),
      })
    : undefined;
  const payload = {
    notificationType: n.type,
    ...(n.subtype ? { subtype: n.subtype } : {}),
    notificationUUID: n.uuid ?? randomUUID(),
    version: "2.0",
    signedDate: n.signedAt,
    data: {
      appAppleId: 1234567890,
      bundleId,
      bundleVersion: "1.0",
      environment,
      ...(signedTransactionInfo ? { signedTransactionInfo } : {}),
      ...(n.type === "CONSUMPTION_REQUEST" ? { consumptionRequestReason: "UNINTENDED_PURCHASE" } : {}),
    },
  };
  return { signedPayload: await signAsApple(chain, payload) };
}

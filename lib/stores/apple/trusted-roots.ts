import "server-only";
import { X509Certificate } from "node:crypto";
import { APPLE_ROOT_CA_G3_PEM } from "./root";

let pinned: readonly X509Certificate[] | undefined;

/**
 * The roots an App Store chain must end in: Apple Root CA - G3, always. Under the test runner
 * (NODE_ENV=test) only, APPLE_TEST_ROOT_PEM adds a root the tests generated themselves, so they can
 * sign notifications end to end; no other process ever trusts anything but Apple's root.
 */
export function trustedAppleRoots(): readonly X509Certificate[] {
  pinned ??= [new X509Certificate(APPLE_ROOT_CA_G3_PEM)];
  const extra = process.env.NODE_ENV === "test" ? process.env.APPLE_TEST_ROOT_PEM : undefined;
  return extra ? [...pinned, new X509Certificate(extra)] : pinned;
}

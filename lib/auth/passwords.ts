import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";

// bcrypt (bcryptjs: maintained, pure JS, so nothing native to build). Cost 11 ≈ 0.1 s here.
const COST = 11;
export const MIN_PASSWORD_LENGTH = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

let dummyHash_: Promise<string> | undefined;

/**
 * A real hash of a random secret, compared against when the email is unknown so that a miss takes
 * as long as a wrong password (no finding out which emails exist by timing).
 */
export function dummyHash(): Promise<string> {
  dummyHash_ ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash_;
}

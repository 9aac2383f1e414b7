// What a full refund would take back, line by line, for the refund forms: decided on the server by
// the same planTakeBack that confirm-refund writes with, and shown before anyone confirms. Pure.
import { held, isLineKind, planTakeBack, type HeldLine, type TakeBackRule, type TakeBackRules } from "./take-back";

/** One line of the preview: what it holds now, and what a full refund would do to it under the tenant's rule. */
export interface TakeBackPreviewLine {
  readonly sku: string;
  readonly kind: string;
  /** Granted less taken back (net of restorations): what the player holds from this line now. */
  readonly held: number;
  /** Units a full refund takes (0: nothing left to take). */
  readonly units: number;
  /** null: no rule covers this kind, and confirming the refund is refused. */
  readonly rule: TakeBackRule | null;
}

/** What the order page hands the refund forms: serialisable, decided on the server. */
export interface TakeBackPreviewData {
  readonly lines: readonly TakeBackPreviewLine[];
  /** Without a revoke endpoint, every `revoke` take-back fails until the tenant sets one. */
  readonly revokeEndpointSet: boolean;
}

/** The preview of a full refund, line by line, by the same planTakeBack confirm-refund writes with. Pure. */
export function takeBackPreview(lines: readonly HeldLine[], rules: TakeBackRules): TakeBackPreviewLine[] {
  const { moves, unknownKinds } = planTakeBack(lines, rules);
  return lines.map((line) => {
    const move = moves.find((m) => m.sku === line.sku);
    // A line of a kind no rule covers has no move, but still holds what the refund would have to take: that is why it is refused.
    const units = move ? -move.quantity : unknownKinds.some((u) => u.sku === line.sku) ? held(line) : 0;
    return { sku: line.sku, kind: line.kind, held: held(line), units, rule: move?.rule ?? (isLineKind(line.kind) ? rules[line.kind] : null) };
  });
}

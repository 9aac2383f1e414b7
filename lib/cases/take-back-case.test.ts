// The take-back-failed case (lib/jobs/take-back-calls.ts files it): its class and SLA, what it
// says in both languages, and what a person may do with it. Pure.
import { describe, expect, it } from "vitest";
import { translator } from "@/lib/i18n/translator";
import { describeCase } from "./describe-case";
import { explainCase } from "./explain";
import type { CaseFacts } from "./facts";
import { DEFAULT_CASE_SLA, kindClass, takeBackCaseKey } from "./model";
import { NO_REVOKE_ENDPOINT } from "@/lib/orders/take-back";
import { caseControls, legalOffers } from "./offers";

const revocationId = "refund:R-1:XX1:gems-60";
const base: CaseFacts = {
  id: 9,
  tenantId: "xiaoxiao",
  orderId: 90,
  kind: "take-back-failed",
  event: null,
  bizKey: takeBackCaseKey(31),
  amount: null,
  currency: "CNY",
  detail: {
    takeBackId: 31,
    sku: "gems-60",
    units: -60,
    rule: "revoke",
    ledgerGrantId: "refund:R-1",
    endpoint: "revoke",
    revocationId,
    attempts: 0,
    lastError: "no revoke endpoint configured",
  },
  actor: "system:take-backs",
  status: "open",
  owner: null,
  takenAt: null,
  createdAt: "2026-12-04T10:00:00.000Z",
  slaDueAt: "2026-12-04T14:00:00.000Z",
  ageSeconds: 60,
  dueInSeconds: 14_340,
  resolution: null,
  resolutionRef: null,
  resolvedReason: null,
  resolvedAt: null,
  resolvedBy: null,
  order: { orderNo: "XX1", state: "refunded", amount: 6_00, currency: "CNY", playerId: "p-1" },
  related: null,
  lines: null,
  refunds: [],
  reservedOfPayment: 0,
  takeBack: null,
  webhookSet: true,
};
const giveBack: CaseFacts = {
  ...base,
  detail: { ...base.detail, units: 40, endpoint: "grant", revocationId: undefined, grantId: "reinstate:K-1:XX1:gems-60", attempts: 15, lastError: "HTTP 503: busy" },
};

describe("take-back-failed", () => {
  it("is a money case, due in 4 hours by default", () => {
    expect(kindClass("take-back-failed")).toBe("money");
    expect(DEFAULT_CASE_SLA["take-back-failed"]).toBe(4 * 3_600);
    expect(takeBackCaseKey(31)).toBe("take-back:31");
  });

  it("explains which sku, how many units, which way, the rule, the last error and the id sent", () => {
    expect(explainCase(base)).toEqual({
      kind: "take-back-failed",
      direction: "take",
      sku: "gems-60",
      units: 60,
      rule: "revoke",
      attempts: 0,
      failure: { kind: "no-endpoint" },
      callId: revocationId,
    });
    expect(explainCase(giveBack)).toMatchObject({ direction: "give", units: 40, attempts: 15, failure: { kind: "http", status: 503 }, callId: "reinstate:K-1:XX1:gems-60" });
    // A detail that is not what the job writes is not guessed at.
    expect(explainCase({ ...base, detail: { ...base.detail, rule: "confiscate" } })).toEqual({ kind: "other", caseKind: "take-back-failed" });
    expect(explainCase({ ...base, detail: { ...base.detail, revocationId: undefined } })).toEqual({ kind: "other", caseKind: "take-back-failed" });
  });

  it("after a retry that failed again, shows the row's latest failure and every attempt so far, not the first failure the case froze", () => {
    // Filed when the endpoint was missing (no call); retried once it was set, and the call timed out.
    const retried: CaseFacts = {
      ...base,
      status: "in-progress",
      takeBack: { id: 31, status: "failed", endpoint: "revoke", endpointSet: true, attempts: 2, lastError: "timed out after 10000 ms" },
    };
    expect(explainCase(retried)).toMatchObject({ attempts: 2, failure: { kind: "timeout", seconds: 10 } });
    expect(describeCase(explainCase(retried), translator("en"), "en")).toBe(
      `Could not take gems-60 × 60 back from the player (rule: Revoke in the game): the revoke endpoint did not answer within 10 s, 2 attempts. Take them back by hand; revocation id ${revocationId}`,
    );
    expect(describeCase(explainCase(retried), translator("zh"), "zh")).toBe(
      `未能从玩家处收回 gems-60 × 60（规则：由游戏收回）：收回接口10 秒内无响应，已尝试 2 次。请人工收回；收回编号 ${revocationId}`,
    );
    // Once an attempt succeeds the row holds no error: the case still says the failure it was filed for.
    expect(explainCase({ ...base, takeBack: { id: 31, status: "done", endpoint: "revoke", endpointSet: true, attempts: 3, lastError: null } })).toMatchObject({
      attempts: 3,
      failure: { kind: "no-endpoint" },
    });
  });

  it("reads in English and in Chinese", () => {
    expect(describeCase(explainCase(base), translator("en"), "en")).toBe(
      `Could not take gems-60 × 60 back from the player (rule: Revoke in the game): the revoke endpoint is not configured, no call made. Take them back by hand; revocation id ${revocationId}`,
    );
    expect(describeCase(explainCase(giveBack), translator("en"), "en")).toBe(
      "Could not give gems-60 × 40 back to the player after the store reversed its refund (rule: Revoke in the game): the grant endpoint answered 503, 15 attempts. Give them back by hand; grant id reinstate:K-1:XX1:gems-60",
    );
    expect(describeCase(explainCase(base), translator("zh"), "zh")).toBe(
      `未能从玩家处收回 gems-60 × 60（规则：由游戏收回）：收回接口未配置，未发出调用。请人工收回；收回编号 ${revocationId}`,
    );
    expect(describeCase(explainCase(giveBack), translator("zh"), "zh")).toBe(
      "商店撤销退款后，未能向玩家退还 gems-60 × 40（规则：由游戏收回）：发放接口返回 503，已尝试 15 次。请人工退还；发放编号 reinstate:K-1:XX1:gems-60",
    );
  });

  it("without its row (or while the row is not failed) offers only dismissing (a manager's, as for any money case); nothing once closed", () => {
    expect(legalOffers(base)).toEqual([{ kind: "dismiss" }]);
    expect(caseControls(base, { actor: "staff:boss@example.com", role: "manager" }).offers).toEqual([{ kind: "dismiss" }]);
    expect(caseControls(base, { actor: "staff:ops@example.com", role: "ops" }).offers).toEqual([]);
    for (const status of ["pending", "done", "recorded"] as const) {
      expect(legalOffers({ ...base, takeBack: { id: 31, status, endpoint: "revoke", endpointSet: true, attempts: 1, lastError: null } })).toEqual([{ kind: "dismiss" }]);
    }
    expect(legalOffers({ ...base, status: "resolved", resolution: "take-back-done", resolvedAt: base.createdAt, resolvedBy: "system:take-backs" })).toEqual([]);
  });

  it("offers a retry to ops and up while its row is failed, saying whether the endpoint is set", () => {
    const failed: CaseFacts = { ...base, takeBack: { id: 31, status: "failed", endpoint: "revoke", endpointSet: false, attempts: 0, lastError: NO_REVOKE_ENDPOINT } };
    expect(legalOffers(failed)).toEqual([{ kind: "retry-take-back", endpoint: "revoke", endpointSet: false }, { kind: "dismiss" }]);
    expect(caseControls(failed, { actor: "staff:ops@example.com", role: "ops" }).offers).toEqual([{ kind: "retry-take-back", endpoint: "revoke", endpointSet: false }]);
    expect(caseControls(failed, { actor: "staff:boss@example.com", role: "manager" }).offers.map((o) => o.kind)).toEqual(["retry-take-back", "dismiss"]);
    expect(caseControls(failed, { actor: "staff:agent@example.com", role: "agent" }).offers).toEqual([]);
    // In progress after a retry that failed again: its owner may retry once more.
    const again: CaseFacts = { ...failed, ...giveBack, takeBack: { id: 31, status: "failed", endpoint: "grant", endpointSet: true, attempts: 30, lastError: "HTTP 503: busy" }, status: "in-progress", owner: "staff:ops@example.com", resolution: "retry-take-back" };
    expect(caseControls(again, { actor: "staff:ops@example.com", role: "ops" }).offers).toEqual([{ kind: "retry-take-back", endpoint: "grant", endpointSet: true }]);
    expect(legalOffers({ ...again, status: "resolved" })).toEqual([]);
  });
});

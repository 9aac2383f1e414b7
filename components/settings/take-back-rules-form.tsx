"use client";

import { useTranslations } from "next-intl";
import { updateTakeBackRules, type UpdateTakeBackRulesInput } from "@/app/[locale]/(console)/settings/actions/update-take-back-rules";
import { Field, Input, Select } from "@/components/ui/field";
import { LINE_KINDS, RULES_FOR_KIND, type TakeBackRules } from "@/lib/orders/take-back";
import { SettingsForm } from "./settings-form";

type Rule = UpdateTakeBackRulesInput["currency"];

export function TakeBackRulesForm({ tenant, updatedAt, rules, revokeEndpointUrl }: { tenant: string; updatedAt: string; rules: TakeBackRules; revokeEndpointUrl: string | null }) {
  const t = useTranslations("settings.takeBack");
  const names = useTranslations("takeBack");
  const id = `take-back-${tenant}`;
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`take-back-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) => {
        const ruleOf = (kind: string) => String(form.get(kind) ?? "") as Rule;
        return updateTakeBackRules({
          tenant,
          expectedUpdatedAt,
          currency: ruleOf("currency"),
          stamina: ruleOf("stamina"),
          cosmetic: ruleOf("cosmetic"),
          item: ruleOf("item"),
          revokeEndpointUrl: String(form.get("revokeEndpointUrl") ?? ""),
        });
      }}
    >
      {({ fieldError }) => (
        <div className="space-y-4">
          {/* Two columns at most: four left each select narrower than its longest rule's name. */}
          <div className="grid gap-4 sm:grid-cols-2">
            {LINE_KINDS.map((kind) => (
              <Field key={kind} label={names(`kinds.${kind}`)} machineName={kind} htmlFor={`${id}-${kind}`} error={fieldError(kind)}>
                {/* Only the rules this kind may take: a cosmetic or an item has no balance to owe. */}
                <Select
                  id={`${id}-${kind}`}
                  name={kind}
                  defaultValue={rules[kind]}
                  aria-invalid={fieldError(kind) ? true : undefined}
                  aria-describedby={fieldError(kind) ? `${id}-${kind}-error` : undefined}
                >
                  {RULES_FOR_KIND[kind].map((rule) => (
                    <option key={rule} value={rule}>
                      {names(`rules.${rule}`)}
                    </option>
                  ))}
                </Select>
              </Field>
            ))}
          </div>
          <Field label={t("endpoint")} htmlFor={`${id}-endpoint`} error={fieldError("revokeEndpointUrl")} hint={t("endpointHint")}>
            <Input
              id={`${id}-endpoint`}
              name="revokeEndpointUrl"
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://"
              defaultValue={revokeEndpointUrl ?? ""}
              className="font-mono"
              aria-invalid={fieldError("revokeEndpointUrl") ? true : undefined}
              aria-describedby={fieldError("revokeEndpointUrl") ? `${id}-endpoint-error` : undefined}
            />
          </Field>
        </div>
      )}
    </SettingsForm>
  );
}

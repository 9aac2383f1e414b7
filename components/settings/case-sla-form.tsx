"use client";

import { useTranslations } from "next-intl";
import { updateCaseSla } from "@/app/[locale]/(console)/settings/actions/update-case-sla";
import { kindClass } from "@/lib/cases/model";
import { EXCEPTION_KINDS, type ExceptionKind } from "@/lib/orders/types";
import { DurationField, durationFrom } from "./duration-field";
import { SettingsForm } from "./settings-form";

/** Per kind of case, its SLA: money kinds first, then goods. */
export function CaseSlaForm({ tenant, updatedAt, slaSeconds }: { tenant: string; updatedAt: string; slaSeconds: Readonly<Partial<Record<string, number>>> }) {
  const kinds = useTranslations("orderPage.exceptionKinds");
  const ordered = [...EXCEPTION_KINDS].sort((a, b) => Number(kindClass(a) === "delivery") - Number(kindClass(b) === "delivery"));
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`case-sla-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) =>
        updateCaseSla({
          tenant,
          expectedUpdatedAt,
          sla: Object.fromEntries(EXCEPTION_KINDS.map((kind) => [kind, durationFrom(form, `sla-${kind}`)])) as Record<ExceptionKind, ReturnType<typeof durationFrom>>,
        })
      }
    >
      {({ fieldError }) => (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {ordered.map((kind) => (
            <DurationField
              key={kind}
              name={`sla-${kind}`}
              label={kinds(kind)}
              machineName={kind}
              seconds={slaSeconds[kind]}
              error={fieldError(`sla.${kind}`)}
            />
          ))}
        </div>
      )}
    </SettingsForm>
  );
}

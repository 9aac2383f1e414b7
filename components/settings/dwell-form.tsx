"use client";

import { useTranslations } from "next-intl";
import { updateDwell } from "@/app/[locale]/(console)/settings/actions/update-dwell";
import type { OrderState } from "@/lib/orders/machine";
import { DWELL_STATES } from "@/lib/settings/durations";
import { DurationField, durationFrom } from "./duration-field";
import { SettingsForm } from "./settings-form";

export function DwellForm({ tenant, updatedAt, maxDwellSeconds }: { tenant: string; updatedAt: string; maxDwellSeconds: Readonly<Partial<Record<OrderState, number>>> }) {
  const states = useTranslations("state");
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`dwell-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) =>
        updateDwell({
          tenant,
          expectedUpdatedAt,
          created: durationFrom(form, "created"),
          paid: durationFrom(form, "paid"),
          delivering: durationFrom(form, "delivering"),
          refunding: durationFrom(form, "refunding"),
        })
      }
    >
      {({ fieldError }) => (
        <div className="grid gap-4 sm:grid-cols-2">
          {DWELL_STATES.map((state) => (
            <DurationField
              key={state}
              name={state}
              label={states(state)}
              machineName={state}
              seconds={maxDwellSeconds[state]}
              error={fieldError(state)}
            />
          ))}
        </div>
      )}
    </SettingsForm>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { Field, Input, Select } from "@/components/ui/field";
import { bestUnit, DURATION_UNITS, type DurationUnit } from "@/lib/format";

/** A duration as a whole number and a unit, shown in the largest unit that fits the stored seconds. */
export function DurationField({
  name,
  label,
  machineName,
  hint,
  seconds,
  error,
}: {
  name: string;
  /** In the reader's language; also names the unit's select for screen readers. */
  label: string;
  /** A contract name the field is for (a state, a case kind): shown beside the label as data. */
  machineName?: string;
  hint?: string;
  seconds: number | undefined;
  error: string | undefined;
}) {
  const t = useTranslations("settings.units");
  const shown = seconds === undefined ? { value: "", unit: "minutes" as const } : bestUnit(seconds);
  // Unique per form: every product on the settings page has its own forms with the same names.
  const id = `duration-${name}-${useId()}`;
  return (
    <Field label={label} machineName={machineName} htmlFor={id} error={error} {...(hint ? { hint } : {})}>
      <div className="flex gap-2">
        <Input
          id={id}
          name={`${name}.value`}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          defaultValue={shown.value}
          className="w-32"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <Select name={`${name}.unit`} defaultValue={shown.unit} aria-label={t("label", { field: label })} className="w-36">
          {DURATION_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {t(unit)}
            </option>
          ))}
        </Select>
      </div>
    </Field>
  );
}

/** The { value, unit } pair a DurationField submitted. */
export function durationFrom(form: FormData, name: string): { value: string; unit: DurationUnit } {
  // The server validates the unit; the cast only satisfies the input type.
  return { value: String(form.get(`${name}.value`) ?? ""), unit: String(form.get(`${name}.unit`) ?? "") as DurationUnit };
}

import { Field, Input } from "@/components/ui/field";

// Its own module, apart from the explorer's form (which reads the filters' zod schemas): the
// security log's form runs in the browser, where zod's parsers may not be built (the CSP refuses
// their `new Function`).

/** A value for <input type="datetime-local">: the instant in UTC, to the second. */
function utcInputValue(date: Date | undefined): string {
  return date ? date.toISOString().slice(0, 19) : "";
}

/** A log's "from" and "to" filters: UTC date-times to the second, as the log stores them. */
export function UtcRangeFields({ idPrefix, from, to, labels }: { idPrefix: string; from?: Date; to?: Date; labels: { from: string; to: string; hint: string } }) {
  return (
    <>
      <Field label={labels.from} htmlFor={`${idPrefix}-from`} hint={labels.hint}>
        <Input id={`${idPrefix}-from`} name="from" type="datetime-local" step={1} defaultValue={utcInputValue(from)} />
      </Field>
      <Field label={labels.to} htmlFor={`${idPrefix}-to`} hint={labels.hint}>
        <Input id={`${idPrefix}-to`} name="to" type="datetime-local" step={1} defaultValue={utcInputValue(to)} />
      </Field>
    </>
  );
}

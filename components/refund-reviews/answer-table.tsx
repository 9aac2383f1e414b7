import { useTranslations } from "next-intl";
import { Table } from "@/components/ui/table";
import type { AppleConsumptionAnswer } from "@/lib/stores/reviews/apple-answer";

/** Apple's fields in the order its documentation lists them; each value shown as sent, with what it means. */
const FIELDS = [
  "customerConsented",
  "deliveryStatus",
  "consumptionStatus",
  "platform",
  "sampleContentProvided",
  "playTime",
  "accountTenure",
  "lifetimeDollarsPurchased",
  "lifetimeDollarsRefunded",
  "userStatus",
  "refundPreference",
  "appAccountToken",
] as const satisfies readonly (keyof AppleConsumptionAnswer)[];

/** The enumerated fields' value names (both lifetime fields share Apple's dollar buckets). */
const VALUE_GROUP = {
  deliveryStatus: "deliveryStatus",
  consumptionStatus: "consumptionStatus",
  platform: "platform",
  playTime: "playTime",
  accountTenure: "accountTenure",
  lifetimeDollarsPurchased: "lifetimeDollars",
  lifetimeDollarsRefunded: "lifetimeDollars",
  userStatus: "userStatus",
  refundPreference: "refundPreference",
} as const;

export function AnswerTable({ answer, caption, testId }: { answer: AppleConsumptionAnswer; caption: string; testId: string }) {
  const t = useTranslations("refundReviews.answer");
  const meaning = (field: (typeof FIELDS)[number]) => {
    const value = answer[field];
    if (typeof value === "boolean") return t(value ? "yes" : "no");
    if (field === "appAccountToken") return value === "" ? t("noToken") : t("token");
    return t(`values.${VALUE_GROUP[field as keyof typeof VALUE_GROUP]}.${value as 0}`);
  };
  return (
    <Table caption={caption} testId={testId} columns={[{ label: t("field") }, { label: t("value") }, { label: t("meaning") }]}>
      <tbody>
        {FIELDS.map((field) => (
          <tr key={field} className="border-b border-slate-100 align-top last:border-0" data-testid={`answer-${field}`}>
            <td className="p-3 font-mono text-xs">{field}</td>
            <td className="break-all p-3 font-mono text-xs">{JSON.stringify(answer[field])}</td>
            <td className="p-3">{meaning(field)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

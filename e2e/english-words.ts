// Finds English words on a page shown in Chinese, outside data. What counts as data:
// - machine names and ids shown as such: monospace text (`font-mono`, <code>, <pre>, <kbd>), which
//   is how the console shows contract names beside their label, ids, SKUs and order numbers;
// - content marked as not to be translated (`translate="no"`) or as English on purpose (`lang="en"`:
//   the API reference's OpenAPI text, which the page says is English);
// - what people and systems typed, read from the database (reasons, notes, names, emails, product
//   and SKU names, canned reasons, webhook errors): see dataStrings();
// - a contract name beside its Chinese label in a select option ("pay · 支付"), where monospace
//   cannot be used;
// - tokens that are ids by their shape: with a digit, an @, or a `kind:` prefix;
// - the brand "Order Ops", acronyms and currency codes (all capitals: API, CSV, ID, UTC, CNY — Chinese
//   software UIs keep them), and "English" as the language switcher names it.
import type { Page } from "@playwright/test";
import type pg from "pg";

// "English" is the language switcher's own name for English, as every language switcher writes it.
const KEPT = new Set(["English", "IDs", "OpenAPI"]);
const ACRONYM = /^[A-Z]{2,5}$/;

/** The page's words as a reader meets them: text nodes and the spoken attributes, data elements left out. */
async function readableText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SKIP = "script,style,noscript,template,code,pre,kbd,samp,.font-mono,[translate='no'],[lang^='en']";
    const SPOKEN = ["aria-label", "title", "placeholder", "alt", "aria-description", "aria-valuetext"];
    const out: string[] = [];
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        const parent = node.parentElement;
        if (!parent || parent.closest(SKIP) || !node.textContent?.trim()) continue;
        // An id broken into pieces by <wbr> (components/ui/breakable.tsx) is read whole, once.
        const whole = parent.querySelector(":scope > wbr") ? parent : null;
        if (whole) {
          if (!seen.has(whole)) out.push((whole.textContent ?? "").trim());
          seen.add(whole);
          continue;
        }
        // A select option may name a contract beside its label ("pay · 支付"): as with monospace
        // text elsewhere, the name is data when the label beside it is Chinese.
        if (parent.tagName === "OPTION") {
          if (seen.has(parent)) continue;
          seen.add(parent);
          const sides = (parent.textContent ?? "").split(" · ");
          const labelled = sides.length === 2 && sides.some((side) => /\p{Script=Han}/u.test(side));
          out.push(labelled ? sides.filter((side) => !/^[a-z][\w.-]*$/.test(side.trim())).join(" · ") : (parent.textContent ?? "").trim());
          continue;
        }
        out.push(node.textContent.trim());
      } else {
        const el = node as Element;
        if (el.closest(SKIP)) continue;
        for (const name of SPOKEN) {
          const value = el.getAttribute(name);
          if (value?.trim()) out.push(value.trim());
        }
      }
    }
    out.push(document.title);
    return out;
  });
}

/**
 * Everything typed by people or systems that a page may show: data, whatever its language. Only
 * values with a letter: a bare number (an exception's attempt count, 10) is taken out by its shape
 * below, and taken out as data it would cut every id holding it ("xx-1000024" → "xx-", "00024").
 */
export async function dataStrings(db: pg.Pool): Promise<string[]> {
  const { rows } = await db.query<{ v: string }>(`
    SELECT DISTINCT v FROM (
      SELECT reason AS v FROM order_transitions
      UNION SELECT actor FROM order_transitions
      UNION SELECT reason FROM grants
      UNION SELECT grant_id FROM grants
      UNION SELECT reason FROM refund_approvals UNION SELECT decision_reason FROM refund_approvals
      UNION SELECT resolved_reason FROM order_exceptions
      UNION SELECT value #>> '{}' FROM order_exceptions, jsonb_each(detail)
      UNION SELECT body FROM order_notes
      UNION SELECT reason FROM bulk_batches
      UNION SELECT reason FROM payment_refunds UNION SELECT channel FROM payment_refunds
      UNION SELECT detail ->> 'reason' FROM audit_events
      UNION SELECT detail ->> 'name' FROM audit_events
      UNION SELECT name FROM staff_users UNION SELECT email FROM staff_users
      UNION SELECT name FROM tenants UNION SELECT id FROM tenants
      UNION SELECT name FROM api_keys
      UNION SELECT name FROM saved_views
      UNION SELECT sku FROM order_lines UNION SELECT kind FROM order_lines
      UNION SELECT jsonb_array_elements_text(value) FROM tenant_settings, jsonb_each(canned_reasons)
      UNION SELECT last_error FROM outbox_messages
      UNION SELECT topic FROM outbox_messages
    ) x WHERE v IS NOT NULL AND length(btrim(v)) > 1 AND v ~ '[[:alpha:]]'`);
  return rows.map((r) => r.v).sort((a, b) => b.length - a.length);
}

/**
 * The English left on the page once the data is taken out, as `“text”: its English words`, one
 * line per piece of text: [] when the page is all Chinese.
 */
export async function englishWords(page: Page, data: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const chunk of await readableText(page)) {
    let text = ` ${chunk} `;
    for (const value of data) if (text.includes(value)) text = text.split(value).join(" ");
    text = text
      .split("Order Ops")
      .join(" ")
      // Ids by their shape: a token with a digit, an email, a `kind:value` actor or key.
      .replace(/\S*\d\S*/g, " ")
      .replace(/\S+@\S+/g, " ")
      .replace(/\b[a-z]+:\S+/g, " ");
    const words = (text.match(/[A-Za-z]{2,}/g) ?? []).filter((word) => !KEPT.has(word) && !ACRONYM.test(word));
    if (words.length > 0) found.add(`“${chunk.slice(0, 100)}”: ${[...new Set(words)].join(" ")}`);
  }
  return [...found];
}

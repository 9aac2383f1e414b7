// CSV that spreadsheets open safely. Pure.

export type Cell = string | number | boolean | null | undefined;

/**
 * Quotes a cell when it must be (comma, quote, newline), and defuses formula injection: a text cell
 * starting with = + - @ (or a tab/CR) gets a leading apostrophe, so Excel shows it instead of running it.
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return csvLine(header) + rows.map(csvLine).join("");
}

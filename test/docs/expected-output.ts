/**
 * How a shown output is compared with what was printed: whitespace runs count
 * as one space (an example may wrap a long object over several comment
 * lines), and `…` stands for any text (an example may leave out what does not
 * matter to its point, such as an id).
 */

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const squeeze = (text: string): string => text.replace(/\s+/g, " ").trim();

/** Whether `printed` is what `shown` shows. */
export function matchesShown(shown: string, printed: string): boolean {
  const pattern = squeeze(shown)
    .split("…")
    .map((piece) => escapeRegExp(piece).replace(/ /g, "\\s*"))
    .join("[\\s\\S]*?");
  return new RegExp(`^${pattern}$`).test(squeeze(printed));
}

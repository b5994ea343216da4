// Display helpers shared by the islands.
const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** 12.5 → "$12.50" (the API sends money as numbers of dollars). */
export function money(value) {
  return dollars.format(Number(value) || 0);
}

/** `one` for a count of 1, else `many` (English), with "{count}" filled in:
 * counted(1, "{count} unit", "{count} units") → "1 unit". The one way the islands put a word
 * after a number; the server has its twin (core.wording.counted), so both say "1 unit". */
export function counted(count, one, many) {
  return (Number(count) === 1 ? one : many).replace("{count}", count);
}

/** price × quantity in whole cents, so 0.1 × 3 is 0.3 and not 0.30000000000000004. */
export function totalOf(price, quantity) {
  return (Math.round(Number(price) * 100) * quantity) / 100;
}

/** An order's `state` (API.md) as the tables show it. */
export const STATE_LABELS = {
  unpaid: "Unpaid",
  pending: "Pending",
  shipped: "Shipped",
  expired: "Expired",
  refunded: "Refunded",
};

/** Whole minutes left before `expiresAt` (rounded up), 0 once it has passed or when unset. */
export function minutesLeft(expiresAt, now = Date.now()) {
  if (!expiresAt) return 0;
  const left = new Date(expiresAt).getTime() - now;
  return left > 0 ? Math.ceil(left / 60000) : 0;
}

/** "Pay within N minutes" for an unpaid order still held, else "". */
export function payWithin(order, now = Date.now()) {
  if (order.state !== "unpaid") return "";
  const minutes = minutesLeft(order.expiresAt, now);
  if (!minutes) return "";
  return counted(minutes, "Pay within {count} minute", "Pay within {count} minutes");
}

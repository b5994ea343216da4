// The cart page's and the checkout's shared rules: the problem a refused checkout sends back
// to /cart (this tab only), whether the cart can be checked out, and the navbar's new count.

/** Tell the page's script (site.js: lib/cart-count.js) the cart's new count for the navbar: an
 * event, so the islands share no module with the page's script (one file fewer to load). */
export function announceCartCount(count) {
  document.dispatchEvent(new CustomEvent(CART_COUNT_EVENT, { detail: count }));
}

export const CART_COUNT_EVENT = "cart-count";

const PROBLEM_KEY = "shop.cartProblem";

/** Keep a refused checkout's problem for the cart page (this tab only). */
export function keepCartProblem(partId, detail) {
  sessionStorage.setItem(PROBLEM_KEY, JSON.stringify({ partId, detail }));
}

/** The kept problem, removed so it shows once; null when there is none. */
export function takeCartProblem() {
  const raw = sessionStorage.getItem(PROBLEM_KEY);
  if (!raw) return null;
  sessionStorage.removeItem(PROBLEM_KEY);
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** The lines with the kept problem shown on its line (when the line has none of its own). */
export function withProblem(lines, kept) {
  if (!kept) return lines;
  return lines.map((line) =>
    line.partId === kept.partId && !line.problem ? { ...line, problem: kept.detail } : line,
  );
}

/** Whether the cart can be checked out: it has lines and none has a problem. */
export function canCheckout(lines) {
  return lines.length > 0 && lines.every((line) => !line.problem);
}

/** Where "Place order" goes with the new order: its payment page (the spec's
 * /dashboard/payment/{id}), or its own page when card payments are not configured. */
export function afterCheckout(booking, cardPayments) {
  if (booking.guestUrl) return booking.guestUrl; // a guest's order: its private page pays it
  return cardPayments ? `/dashboard/payment/${booking._id}` : booking.url;
}

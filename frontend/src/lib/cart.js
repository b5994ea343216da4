// The cart as the page's script and the islands share it: the navbar's count, the browser's
// hint that it has a cart, and the problem a refused checkout sends back to /cart.
import { counted } from "./format.js";
import { signedInEmail } from "./session.js";

/** The cookie the cart's answers set while the cart has units (orders/cart_api.py). */
export const COUNT_COOKIE = "cart_units";
const PROBLEM_KEY = "shop.cartProblem";

/** The navbar link's accessible name: "Cart, 3 items". */
export function cartLabel(count) {
  return counted(count, "Cart, {count} item", "Cart, {count} items");
}

/** The units the cart's last answer counted, from the cookie it set (0 without one). */
export function hintedCount(cookies = document.cookie) {
  const match = cookies.match(/(?:^|;\s*)cart_units=(\d+)/);
  return match ? Number(match[1]) : 0;
}

/** Show `count` in every Cart link of the page (the navbar's). */
export function showCartCount(count) {
  for (const link of document.querySelectorAll("[data-cart-link]")) {
    link.setAttribute("aria-label", cartLabel(count));
    const badge = link.querySelector("[data-cart-count]");
    if (badge) {
      badge.textContent = String(count);
      badge.hidden = !count;
    }
  }
}

/** Fill the navbar's count in from /api/cart, asked only when there may be a cart: signed in
 * (an account's cart may have changed on another device), or a visitor whose cart's answers
 * left the hint (which the answer renews, or deletes once the cart is empty or gone). */
export async function fillCartCount() {
  if (!signedInEmail() && !hintedCount()) return;
  try {
    const response = await fetch("/api/cart", {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (response.ok) showCartCount((await response.json()).count);
  } catch {
    // Offline or the server is down: the link still leads to the cart.
  }
}

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

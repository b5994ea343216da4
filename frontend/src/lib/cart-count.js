// The navbar's cart count: filled in when a page opens with a cart to count, and shown again
// when an island announces a change of the cart (lib/cart.js's event "cart-count");
// site.js loads it then.
import { signedInEmail } from "./session.js";

/** The cookie the cart's answers set while the cart has units (orders/cart_api.py). */
const COUNT_COOKIE = "cart_units";

/** The navbar link's accessible name: "Cart, 3 items" (format.js's `counted`, inlined: the
 * page's script stays one file). */
export function cartLabel(count) {
  return `Cart, ${count} ${Number(count) === 1 ? "item" : "items"}`;
}

/** The units the cart's last answer counted, from the cookie it set (0 without one). */
export function hintedCount(cookies = document.cookie) {
  const match = cookies.match(new RegExp(`(?:^|;\\s*)${COUNT_COOKIE}=(\\d+)`));
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

/** Show `count` in the navbar; without one, the count from /api/cart, asked only when there
 * may be a cart: signed in
 * (an account's cart may have changed on another device), or a visitor whose cart's answers
 * left the hint (which the answer renews, or deletes once the cart is empty or gone). */
export async function fillCartCount(count) {
  if (count !== undefined || (!signedInEmail() && !hintedCount())) {
    showCartCount(count ?? 0);
    return;
  }
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

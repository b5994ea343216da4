// "Add to cart" on the cards and the part pages (plain HTML, kept for every visitor): loaded by
// site.js on the first press, with the toasts (React) it shows.
import { api } from "./api.js";
import { announceCartCount } from "./cart.js";
import { notify } from "./toasts.jsx";

export const ADDED = "Added to cart";

/** Add `quantity` units of part `partId`; the navbar shows the new count, a toast says so. */
export async function addToCart(partId, quantity) {
  const cart = await api("/api/cart", { method: "POST", body: { partId, quantity } });
  announceCartCount(cart.count);
  notify(ADDED);
  return cart;
}

function setBusy(button, busy) {
  button.disabled = busy;
  button.toggleAttribute("aria-busy", busy);
}

/** A card's button: its part and the minimum order quantity; a refusal is an error toast. */
export async function addFromButton(button) {
  setBusy(button, true);
  try {
    await addToCart(Number(button.dataset.addToCart), Number(button.dataset.quantity));
  } catch (error) {
    notify(error.fields.quantity || error.fields.partId || error.message, "error");
  } finally {
    setBusy(button, false);
  }
}

/** A part page's form: the quantity typed; the server's message shows under the field. */
export async function addFromForm(form) {
  const input = form.elements.quantity;
  const message = form.querySelector("[data-cart-error]");
  const button = form.querySelector("button[type=submit]");
  setBusy(button, true);
  try {
    await addToCart(Number(form.dataset.addToCart), input.value.trim());
    message.textContent = "";
    input.removeAttribute("aria-invalid");
  } catch (error) {
    message.textContent = error.fields.quantity || error.fields.partId || error.message;
    input.setAttribute("aria-invalid", "true");
    input.focus();
  } finally {
    setBusy(button, false);
  }
}

/** What site.js calls: a part page's form, or a card's button. */
export function addFrom(element) {
  return element instanceof HTMLFormElement ? addFromForm(element) : addFromButton(element);
}

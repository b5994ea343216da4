// "Add to cart" on the cards and the part pages (plain HTML, kept for every visitor): loaded by
// site.js on the first press, with the toasts (React) it shows.
import { ApiError, api } from "./api.js";
import { announceCartCount } from "./cart.js";
import { dismiss, notify } from "./toasts.jsx";

export const ADDED = "Added to cart";
export const UNREACHABLE = "The shop could not be reached. Please try again.";

let added = null; // the last "Added to cart" toast

/** The last "Added to cart" goes: a later answer (or a refusal) must not stand beside it. */
export function dismissAdded() {
  if (added) dismiss(added);
  added = null;
}

/** Add `quantity` units of part `partId`; the navbar shows the new count, a toast says so. */
export async function addToCart(partId, quantity) {
  dismissAdded();
  const cart = await api("/api/cart", { method: "POST", body: { partId, quantity } });
  announceCartCount(cart.count);
  added = notify(ADDED);
  return cart;
}

/** Why an addition was refused, in the server's words (its quantity's or part's message). */
export function refusal(error) {
  if (!(error instanceof ApiError)) return UNREACHABLE;
  return error.fields.quantity || error.fields.partId || error.message;
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
    notify(refusal(error), "error");
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
    message.textContent = refusal(error);
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

// The small script of every page (no React): keeps the spec's accessToken in step with the
// session, gives forms their confirmation and loading indicator, closes menus on Escape or a
// tap outside, replaces broken part images and keeps hidden slides out of the Tab order; has
// the navbar's cart count filled in (lib/cart-count.js) and runs "Add to cart"
// (lib/add-to-cart.js): both loaded when needed, a visitor without a cart loads neither; marks
// the saved parts' "Save" buttons "Saved" and toggles them (lib/saved.js: loaded when the page
// has one and there may be saved parts, or on the first press). A
// "Print" button (`data-print`: an invoice) prints the page. A search box's suggestions load
// when it first takes the focus (lib/suggest.js).
import { watchImages } from "./lib/images.js";
import { watchMenus } from "./lib/menus.js";
import { clearToken, exchangeToken, signedInEmail, storedToken } from "./lib/session.js";
import { watchSlides } from "./lib/slides.js";

function syncToken() {
  if (!signedInEmail()) clearToken();
  else if (!storedToken()) exchangeToken();
}

function onSubmit(event) {
  const form = event.target;
  if (form.matches("[data-add-to-cart]")) {
    event.preventDefault();
    addToCart(form);
    return;
  }
  if (form.matches("[data-save-part]")) {
    event.preventDefault();
    import("./lib/saved.js").then((module) => module.toggleSaved(form));
    return;
  }
  if (form.matches("[data-confirm]") && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
    return;
  }
  if (form.matches("[data-signout]")) clearToken();
  if (form.matches("[data-loading]")) {
    for (const button of form.querySelectorAll("button[type=submit]")) {
      button.disabled = true;
      button.insertAdjacentHTML(
        "afterbegin",
        '<span class="loading loading-spinner loading-sm" role="status" aria-label="Loading"></span>',
      );
    }
  }
}

function addToCart(element) {
  import("./lib/add-to-cart.js").then((module) => module.addFrom(element));
}

function onClick(event) {
  const button = event.target.closest("button[data-add-to-cart]");
  if (button) addToCart(button);
  if (event.target.closest("button[data-print]")) window.print();
}

/** The navbar's count: `count` when an island announces it, else asked for. */
function fillCartCount(count) {
  import("./lib/cart-count.js").then((module) => module.fillCartCount(count));
}

syncToken();
// Signed in, or the hint the cart's answers leave: there may be a count to show.
if (signedInEmail() || document.cookie.includes("cart_units=")) fillCartCount();
// An island changed the cart (lib/cart.js).
document.addEventListener("cart-count", (event) => fillCartCount(event.detail));
// Signed in, or the hint /api/saved's answers leave: the page's saved parts read "Saved".
if (
  document.querySelector("form[data-save-part]") &&
  (signedInEmail() || document.cookie.includes("saved_parts="))
) {
  import("./lib/saved.js").then((module) => module.fillSaved());
}
document.addEventListener("submit", onSubmit);
document.addEventListener("click", onClick);
// A search box's suggestions (lib/suggest.js), loaded when one first takes the focus.
document.addEventListener("focusin", (event) => {
  const box = event.target.closest?.("[data-suggest] input");
  if (box) import("./lib/suggest.js").then((module) => module.watchSuggest(box));
});
watchMenus();
watchImages();
watchSlides();

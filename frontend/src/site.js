// The small script of every page (no React): keeps the spec's accessToken in step with the
// session, gives forms their confirmation and loading indicator, closes menus on Escape or a
// tap outside, replaces broken part images and keeps hidden slides out of the Tab order; fills
// the navbar's cart count in and runs "Add to cart" (lib/add-to-cart.js, loaded on first use).
import { fillCartCount } from "./lib/cart.js";
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
    import("./lib/add-to-cart.js").then(({ addFromForm }) => addFromForm(form));
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

function onClick(event) {
  const button = event.target.closest?.("button[data-add-to-cart]");
  if (!button) return;
  import("./lib/add-to-cart.js").then(({ addFromButton }) => addFromButton(button));
}

syncToken();
fillCartCount();
document.addEventListener("submit", onSubmit);
document.addEventListener("click", onClick);
watchMenus();
watchImages();
watchSlides();

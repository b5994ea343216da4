// The small-screen menus (the navbar's <details> dropdown, the dashboard drawer) close on
// Escape and on a tap outside them, as people expect of a menu.

/** Close every open dropdown that does not contain `target` (null: close them all). */
export function closeMenus(root, target = null) {
  for (const menu of root.querySelectorAll("details.dropdown[open]")) {
    if (!target || !menu.contains(target)) menu.removeAttribute("open");
  }
}

/** The dashboard drawer's checkbox, unchecked (closed). */
export function closeDrawer(root) {
  const drawer = root.getElementById?.("dashboard-drawer");
  if (drawer) drawer.checked = false;
}

/** A link to "/dashboard#menu" (the phone navbar's dashboard button) arrives with the
 * dashboard's menu open. */
export function openDrawerFor(root, hash) {
  const drawer = root.getElementById?.("dashboard-drawer");
  if (drawer && hash === "#menu") drawer.checked = true;
}

export function watchMenus(root = document) {
  openDrawerFor(root, root.location?.hash);
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    closeMenus(root);
    closeDrawer(root);
  });
  root.addEventListener("click", (event) => closeMenus(root, event.target));
}

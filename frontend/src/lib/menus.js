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

export function watchMenus(root = document) {
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    closeMenus(root);
    closeDrawer(root);
  });
  root.addEventListener("click", (event) => closeMenus(root, event.target));
}

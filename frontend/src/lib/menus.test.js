import { describe, expect, it } from "vitest";
import { showFallback } from "./images.js";
import { closeDrawer, closeMenus, openDrawerFor } from "./menus.js";
import { markHiddenSlides } from "./slides.js";

function menu(inside) {
  const attributes = { open: "" };
  return {
    attributes,
    contains: (node) => node === inside,
    removeAttribute: (name) => delete attributes[name],
  };
}

describe("closeMenus", () => {
  it("closes the open menus the tap was outside of", () => {
    const link = {};
    const tapped = menu(link);
    const other = menu({});
    closeMenus({ querySelectorAll: () => [tapped, other] }, link);
    expect("open" in tapped.attributes).toBe(true);
    expect("open" in other.attributes).toBe(false);
  });

  it("closes every menu on Escape (no target)", () => {
    const one = menu({});
    closeMenus({ querySelectorAll: () => [one] });
    expect("open" in one.attributes).toBe(false);
  });
});

describe("closeDrawer", () => {
  it("unchecks the drawer's checkbox", () => {
    const drawer = { checked: true };
    closeDrawer({ getElementById: () => drawer });
    expect(drawer.checked).toBe(false);
  });
});

describe("markHiddenSlides", () => {
  it("makes slides mostly out of view inert", () => {
    const shown = { inert: true };
    const hidden = { inert: false };
    markHiddenSlides([
      { target: shown, intersectionRatio: 1 },
      { target: hidden, intersectionRatio: 0.1 },
    ]);
    expect(shown.inert).toBe(false);
    expect(hidden.inert).toBe(true);
  });
});

describe("showFallback", () => {
  it("swaps in the placeholder once", () => {
    const img = { dataset: { fallback: "/static/img/parts/placeholder.svg" }, src: "x.png" };
    showFallback(img);
    expect(img.src).toBe("/static/img/parts/placeholder.svg");
    img.src = "still-broken.svg";
    showFallback(img);
    expect(img.src).toBe("still-broken.svg");
  });
});

describe("openDrawerFor", () => {
  it("opens the dashboard menu for #menu only", () => {
    const drawer = { checked: false };
    const root = { getElementById: () => drawer };
    openDrawerFor(root, "#main");
    expect(drawer.checked).toBe(false);
    openDrawerFor(root, "#menu");
    expect(drawer.checked).toBe(true);
  });

  it("does nothing on a page without the dashboard", () => {
    expect(() => openDrawerFor({ getElementById: () => null }, "#menu")).not.toThrow();
  });
});

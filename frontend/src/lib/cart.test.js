import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../test/storage.js";
import {
  afterCheckout,
  canCheckout,
  keepCartProblem,
  takeCartProblem,
  withProblem,
} from "./cart.js";
import { cartLabel, hintedCount } from "./cart-count.js";

beforeEach(() => {
  vi.stubGlobal("sessionStorage", memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the navbar's count", () => {
  it("says how many items, one without an s", () => {
    expect(cartLabel(0)).toBe("Cart, 0 items");
    expect(cartLabel(1)).toBe("Cart, 1 item");
    expect(cartLabel(12)).toBe("Cart, 12 items");
  });

  it("reads the hint the cart's answers leave, 0 without one", () => {
    expect(hintedCount("")).toBe(0);
    expect(hintedCount("csrftoken=abc; cart_units=7")).toBe(7);
    expect(hintedCount("cart_units=3; csrftoken=abc")).toBe(3);
    expect(hintedCount("old_cart_units=9")).toBe(0);
  });
});

describe("a refused checkout's problem", () => {
  const lines = [
    { partId: 1, problem: null },
    { partId: 2, problem: null },
    { partId: 3, problem: "Only 2 left" },
  ];

  it("is kept for the cart page once", () => {
    keepCartProblem(2, "Brake pads: only 1 unit is available");
    expect(takeCartProblem()).toEqual({
      partId: 2,
      detail: "Brake pads: only 1 unit is available",
    });
    expect(takeCartProblem()).toBeNull();
  });

  it("shows on its line, unless the line has a problem of its own", () => {
    const shown = withProblem(lines, { partId: 2, detail: "Gone" });
    expect(shown.map((line) => line.problem)).toEqual([null, "Gone", "Only 2 left"]);
    expect(withProblem(lines, { partId: 3, detail: "Gone" })[2].problem).toBe("Only 2 left");
    expect(withProblem(lines, null)).toBe(lines);
  });

  it("stops checkout, as any problem does; so does an empty cart", () => {
    expect(canCheckout(lines.slice(0, 2))).toBe(true);
    expect(canCheckout(lines)).toBe(false);
    expect(canCheckout(withProblem(lines.slice(0, 2), { partId: 1, detail: "Gone" }))).toBe(false);
    expect(canCheckout([])).toBe(false);
  });
});

describe("where Place order goes", () => {
  const booking = { _id: 42, url: "/dashboard/orders/42" };

  it("goes on to pay the new order when card payments are on", () => {
    expect(afterCheckout(booking, true)).toBe("/dashboard/payment/42");
  });

  it("goes to the order's page when they are not", () => {
    expect(afterCheckout(booking, false)).toBe("/dashboard/orders/42");
  });

  it("takes a guest to its order's private page, which pays it", () => {
    const guest = { _id: 42, url: "/orders/42/k3y", guestUrl: "/orders/42/k3y" };
    expect(afterCheckout(guest, true)).toBe("/orders/42/k3y");
    expect(afterCheckout(guest, false)).toBe("/orders/42/k3y");
  });
});

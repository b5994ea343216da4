import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../test/storage.js";
import { flashNext, takeFlash } from "./flash.js";

beforeEach(() => {
  vi.stubGlobal("sessionStorage", memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("flash message", () => {
  it("is null when none was kept", () => {
    expect(takeFlash()).toBeNull();
  });

  it("is kept for the next page with its level, success by default", () => {
    flashNext("Order placed");
    expect(takeFlash()).toEqual({ text: "Order placed", level: "success" });
    flashNext("Stock is low", "warning");
    expect(takeFlash()).toEqual({ text: "Stock is low", level: "warning" });
  });

  it("shows once", () => {
    flashNext("Order placed");
    takeFlash();
    expect(takeFlash()).toBeNull();
  });

  it("is dropped when what was kept is not JSON", () => {
    sessionStorage.setItem("shop.flash", "{broken");
    expect(takeFlash()).toBeNull();
    expect(sessionStorage.getItem("shop.flash")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { breakdownRows } from "./breakdown.js";

const QUOTE = {
  subtotal: "49.00",
  discount: "4.90",
  voucher: "RIDE10",
  shipping: { method: "Express", price: "14.99", eta: "1–2 business days" },
  tax: "0.00",
  taxIncluded: true,
  total: "59.09",
};

describe("breakdownRows", () => {
  it("reads as the order page: the discount with its code, shipping with its method", () => {
    expect(breakdownRows(QUOTE)).toEqual([
      ["Subtotal", "$49.00"],
      ["Discount (RIDE10)", "-$4.90"],
      ["Shipping", "Express: $14.99"],
      ["Tax", "$0.00"],
      ["Total", "$59.09"],
    ]);
  });

  it("says Free for free shipping and leaves out a discount without a code", () => {
    const quote = {
      ...QUOTE,
      discount: 0,
      voucher: null,
      shipping: { method: "Standard", price: 0, eta: "" },
      total: 49,
    };
    expect(breakdownRows(quote)).toEqual([
      ["Subtotal", "$49.00"],
      ["Shipping", "Standard: Free"],
      ["Tax", "$0.00"],
      ["Total", "$49.00"],
    ]);
  });

  it("keeps a free-shipping code's row at $0.00", () => {
    const free = { ...QUOTE, discount: 0, voucher: "FREESHIP" };
    expect(breakdownRows(free)).toContainEqual(["Discount (FREESHIP)", "$0.00"]);
  });

  it("says the tax added, or what the prices include", () => {
    const added = { ...QUOTE, tax: "11.88", taxIncluded: false, total: "70.97" };
    expect(breakdownRows(added)).toContainEqual(["Tax", "$11.88"]);
    const included = { ...QUOTE, tax: "9.43", taxIncluded: true };
    expect(breakdownRows(included)).toContainEqual(["Tax", "Includes $9.43 tax"]);
  });

  it("says a shop without methods ships free", () => {
    expect(breakdownRows({ ...QUOTE, shipping: null })).toContainEqual(["Shipping", "Free"]);
  });
});

import { describe, expect, it } from "vitest";
import { ApiError } from "./api.js";
import {
  bookingBody,
  checkOrder,
  isOrderable,
  isSoldOut,
  orderTotal,
  splitErrors,
} from "./purchase.js";

const part = {
  _id: "p1",
  name: "Sintered brake pads",
  price: 19.99,
  minimumOrderQuantity: 2,
  availableQuantity: 8,
};
const user = { name: "Ada Rider", email: "ada@example.com" };
const valid = { phone: "0123456789", address: "7 Gear Lane, Leeds", quantity: "3" };

describe("checkOrder", () => {
  it("finds nothing wrong with a complete order", () => {
    expect(checkOrder(valid, part)).toEqual({});
  });

  it("requires phone, address and quantity", () => {
    expect(checkOrder({ phone: "", address: "", quantity: "" }, part)).toEqual({
      phone: "Phone is required",
      address: "Address is required",
      quantity: "Quantity is required",
    });
  });

  it("treats blanks as missing", () => {
    const errors = checkOrder({ phone: "  ", address: "\t", quantity: " " }, part);
    expect(Object.keys(errors)).toEqual(["phone", "address", "quantity"]);
  });

  it("accepts the minimum order quantity and the available quantity", () => {
    expect(checkOrder({ ...valid, quantity: "2" }, part)).toEqual({});
    expect(checkOrder({ ...valid, quantity: "8" }, part)).toEqual({});
  });

  it("refuses fewer than the minimum order quantity", () => {
    expect(checkOrder({ ...valid, quantity: "1" }, part)).toEqual({
      quantity: "Quantity must be at least 2 (the minimum order quantity)",
    });
  });

  it("refuses more than the available quantity", () => {
    expect(checkOrder({ ...valid, quantity: "9" }, part)).toEqual({
      quantity: "Only 8 units are available",
    });
  });

  it("says the last unit in the singular", () => {
    const last = { ...part, minimumOrderQuantity: 1, availableQuantity: 1 };
    expect(checkOrder({ ...valid, quantity: "2" }, last)).toEqual({
      quantity: "Only 1 unit is available",
    });
  });

  it("answers zero and negative quantities with the minimum, as the server does", () => {
    const minimum = { quantity: "Quantity must be at least 2 (the minimum order quantity)" };
    for (const quantity of ["0", "-3", " -3 ", "-0"]) {
      expect(checkOrder({ ...valid, quantity }, part)).toEqual(minimum);
    }
  });

  it("refuses a fraction or text as quantity", () => {
    const whole = { quantity: "Quantity must be a whole number" };
    expect(checkOrder({ ...valid, quantity: "2.5" }, part)).toEqual(whole);
    expect(checkOrder({ ...valid, quantity: "two" }, part)).toEqual(whole);
  });

  it("takes whole digits only: 1e2 is not 100 units", () => {
    const whole = { quantity: "Quantity must be a whole number" };
    for (const quantity of ["1e2", "2.0", "+3", "0x3", "--3", "-", "3-"]) {
      expect(checkOrder({ ...valid, quantity }, part)).toEqual(whole);
    }
  });
});

describe("isOrderable", () => {
  it("is true only between the minimum order and the stock", () => {
    expect(isOrderable("2", part)).toBe(true);
    expect(isOrderable("8", part)).toBe(true);
    expect(isOrderable("1", part)).toBe(false);
    expect(isOrderable("9", part)).toBe(false);
    expect(isOrderable("1e2", part)).toBe(false);
  });
});

describe("isSoldOut", () => {
  it("is true when the stock is below the minimum order quantity", () => {
    expect(isSoldOut({ ...part, availableQuantity: 1 })).toBe(true);
  });

  it("is false when the stock meets the minimum order quantity", () => {
    expect(isSoldOut({ ...part, availableQuantity: 2 })).toBe(false);
  });
});

describe("orderTotal", () => {
  it("is price × quantity", () => {
    expect(orderTotal(19.99, "3")).toBe(59.97);
    expect(orderTotal(0.1, "3")).toBe(0.3);
  });

  it("is 0 while the quantity is empty, zero, negative or not whole digits", () => {
    for (const quantity of ["", "0", "-2", "1.5", "x", "1e2"]) {
      expect(orderTotal(19.99, quantity)).toBe(0);
    }
  });
});

describe("bookingBody", () => {
  it("sends the trimmed fields, the quantity as a number and the spec's extra fields", () => {
    const values = { phone: " 0123456789 ", address: " 7 Gear Lane ", quantity: "3" };
    expect(bookingBody(values, part, user)).toEqual({
      partId: "p1",
      quantity: 3,
      address: "7 Gear Lane",
      phone: "0123456789",
      name: "Ada Rider",
      email: "ada@example.com",
      partsName: "Sintered brake pads",
      pricePerUnit: 19.99,
      totalPrice: 59.97,
    });
  });

  it("sends the picked delivery method, and none when none is picked", () => {
    const values = { phone: "0123456789", address: "7 Gear Lane", quantity: "3" };
    expect(bookingBody(values, part, user, 5).shippingMethod).toBe(5);
    expect(bookingBody(values, part, user, null)).not.toHaveProperty("shippingMethod");
  });
});

describe("splitErrors", () => {
  it("puts the form's field messages by their fields and the rest under the form", () => {
    const error = new ApiError(400, {
      quantity: ["Only 8 units are available"],
      phone: ["Phone is required"],
      partId: ["Unknown part."],
      email: ["Ignored field."],
    });
    expect(splitErrors(error)).toEqual({
      fields: { quantity: "Only 8 units are available", phone: "Phone is required" },
      formError: "Unknown part. Ignored field.",
    });
  });

  it("shows no form message for a 400 that only has field messages", () => {
    const error = new ApiError(400, { address: ["Address is required"] });
    expect(splitErrors(error)).toEqual({
      fields: { address: "Address is required" },
      formError: "",
    });
  });

  it("shows the error's own message for other failures", () => {
    const error = new ApiError(409, { detail: "Stock changed, please try again." });
    expect(splitErrors(error)).toEqual({
      fields: {},
      formError: "Stock changed, please try again.",
    });
  });

  it("shows a general message when the server sent no body", () => {
    expect(splitErrors(new ApiError(502, null)).formError).toBe(
      "Something went wrong (HTTP 502). Please try again.",
    );
  });
});

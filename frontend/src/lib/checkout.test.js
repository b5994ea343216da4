import { describe, expect, it } from "vitest";
import {
  addressLine,
  blankAddress,
  cartRows,
  checkoutBody,
  checkoutErrors,
  countryName,
  firstErrorField,
  methodsPath,
  NEW_ADDRESS,
  partMethodsPath,
  pickMethod,
  priceText,
  startAddress,
} from "./checkout.js";

const COUNTRIES = [
  { code: "GB", name: "United Kingdom" },
  { code: "US", name: "United States of America" },
];

describe("cartRows", () => {
  it("reads Subtotal and Total, with no Discount row when there is none", () => {
    const cart = { subtotal: "49.00", discount: "0.00", voucher: null, total: "49.00" };
    expect(cartRows(cart)).toEqual([
      ["Subtotal", "$49.00"],
      ["Total", "$49.00"],
    ]);
  });

  it("shows the discount with its code", () => {
    const cart = {
      subtotal: "49.00",
      discount: "4.90",
      voucher: { code: "RIDE10", kind: "percent", value: "10.00" },
      total: "44.10",
    };
    expect(cartRows(cart)).toEqual([
      ["Subtotal", "$49.00"],
      ["Discount (RIDE10)", "-$4.90"],
      ["Total", "$44.10"],
    ]);
  });

  it("leaves a free-shipping code out of the totals (its discount is 0)", () => {
    const cart = {
      subtotal: "20.00",
      discount: "0.00",
      voucher: { code: "SHIPFREE", kind: "shipping", value: "0.00" },
      total: "20.00",
    };
    expect(cartRows(cart).map(([label]) => label)).toEqual(["Subtotal", "Total"]);
  });

  it("takes the total as the subtotal from an older cart without one", () => {
    expect(cartRows({ total: "12.00" })).toEqual([
      ["Subtotal", "$12.00"],
      ["Total", "$12.00"],
    ]);
  });
});

describe("priceText", () => {
  it("says Free at 0 and the amount otherwise", () => {
    expect(priceText("0.00")).toBe("Free");
    expect(priceText(0)).toBe("Free");
    expect(priceText("14.99")).toBe("$14.99");
  });
});

describe("pickMethod", () => {
  const methods = [
    { _id: 1, name: "Standard", isDefault: false },
    { _id: 2, name: "Express", isDefault: true },
    { _id: 3, name: "Overnight", isDefault: false },
  ];

  it("keeps the picked method while it is still offered", () => {
    expect(pickMethod(methods, 3)).toBe(3);
  });

  it("falls back on the default, then on the first", () => {
    expect(pickMethod(methods, 9)).toBe(2);
    expect(pickMethod(methods)).toBe(2);
    const noDefault = methods.map((method) => ({ ...method, isDefault: false }));
    expect(pickMethod(noDefault, 9)).toBe(1);
  });

  it("picks nothing from an empty list", () => {
    expect(pickMethod([], 1)).toBe(null);
    expect(pickMethod(undefined)).toBe(null);
  });
});

describe("the shipping methods' addresses", () => {
  it("asks for a country, and a region only when there is one", () => {
    expect(methodsPath({ country: "US", region: "" })).toBe("/api/shipping-methods?country=US");
    expect(methodsPath({ country: "US", region: " IL " })).toBe(
      "/api/shipping-methods?country=US&region=IL",
    );
    expect(methodsPath({ country: "GB", region: "Île & Co" })).toBe(
      "/api/shipping-methods?country=GB&region=%C3%8Ele+%26+Co",
    );
  });

  it("prices one part's order by its id and quantity", () => {
    expect(partMethodsPath(7, 3)).toBe("/api/shipping-methods?partId=7&quantity=3");
  });
});

describe("addresses", () => {
  const jane = {
    _id: 4,
    fullName: "Jane Rider",
    line1: "1 Main St",
    line2: "Apt 2",
    city: "Springfield",
    region: "IL",
    postcode: "62701",
    country: "US",
    phone: "+12175550100",
    isDefault: true,
  };

  it("writes a saved address on one line, leaving out the empty parts", () => {
    expect(addressLine(jane, COUNTRIES)).toBe(
      "Jane Rider, 1 Main St, Apt 2, Springfield, IL 62701, United States of America",
    );
    const plain = { ...jane, line2: "", region: "", country: "GB", postcode: "LS1 4AP" };
    expect(addressLine(plain, COUNTRIES)).toBe(
      "Jane Rider, 1 Main St, Springfield, LS1 4AP, United Kingdom",
    );
  });

  it("names a country from the page's list, or by its code", () => {
    expect(countryName(COUNTRIES, "GB")).toBe("United Kingdom");
    expect(countryName(COUNTRIES, "XK")).toBe("XK");
  });

  it("starts a new address empty, in the shop's country", () => {
    expect(blankAddress("US")).toEqual({
      fullName: "",
      line1: "",
      line2: "",
      city: "",
      region: "",
      postcode: "",
      country: "US",
      phone: "",
    });
  });
});

describe("startAddress", () => {
  it("starts from the last order's address and phone, the rest blank", () => {
    const last = { line1: "12 Demo Lane, Springfield", phone: "5550100", other: "x" };
    expect(startAddress("US", last)).toEqual({
      ...blankAddress("US"),
      line1: "12 Demo Lane, Springfield",
      phone: "5550100",
    });
    expect(startAddress("US", { country: "GB", city: "Leeds" })).toEqual({
      ...blankAddress("GB"),
      city: "Leeds",
    });
    expect(startAddress("US")).toEqual(blankAddress("US"));
  });
});

describe("checkoutBody", () => {
  it("sends a saved address by its id, the method and the total shown", () => {
    expect(checkoutBody({ shipTo: 4, methodId: 2, total: "59.09" })).toEqual({
      addressId: 4,
      shippingMethod: 2,
      expectedTotal: "59.09",
    });
  });

  it("sends a new address trimmed, and whether to save it", () => {
    const newAddress = {
      ...blankAddress("GB"),
      fullName: " Ola ",
      line1: "1 Road ",
      city: "Leeds",
    };
    expect(
      checkoutBody({ shipTo: NEW_ADDRESS, newAddress, saveAddress: true, methodId: 1, total: "9" }),
    ).toEqual({
      shipTo: { ...blankAddress("GB"), fullName: "Ola", line1: "1 Road", city: "Leeds" },
      saveAddress: true,
      shippingMethod: 1,
      expectedTotal: "9",
    });
  });

  it("sends a guest's e-mail, trimmed", () => {
    expect(
      checkoutBody({ shipTo: 4, methodId: null, total: "1.00", email: " ann@example.com " }),
    ).toEqual({ addressId: 4, expectedTotal: "1.00", email: "ann@example.com" });
  });

  it("leaves the method out when none is picked (the server's default)", () => {
    expect(checkoutBody({ shipTo: 4, methodId: null, total: "1.00" })).toEqual({
      addressId: 4,
      expectedTotal: "1.00",
    });
  });
});

describe("checkoutErrors", () => {
  it("puts the new address's messages on its fields and the first gets the focus", () => {
    const found = checkoutErrors({
      shipTo: { postcode: ["Enter a US ZIP code."], fullName: ["This field is required."] },
    });
    expect(found.fields).toEqual({
      postcode: "Enter a US ZIP code.",
      fullName: "This field is required.",
    });
    expect(firstErrorField(found.fields)).toBe("fullName");
    expect(found.formError).toBe("");
  });

  it("keeps the address's and the method's sentences for their own sections", () => {
    const found = checkoutErrors({
      addressId: ["This address no longer exists."],
      shippingMethod: ["This shipping method does not deliver to Norway."],
      expectedTotal: ["A valid number is required."],
    });
    expect(found.shipTo).toBe("This address no longer exists.");
    expect(found.delivery).toBe("This shipping method does not deliver to Norway.");
    expect(found.formError).toBe("A valid number is required.");
    expect(firstErrorField(found.fields)).toBe(null);
  });

  it("puts a guest's e-mail message on its field, focused first", () => {
    const found = checkoutErrors({
      email: ["Enter a valid email address"],
      shipTo: { city: ["City is required"] },
    });
    expect(found.fields.email).toBe("Enter a valid email address");
    expect(firstErrorField(found.fields)).toBe("email");
    expect(found.formError).toBe("");
  });

  it("reads a detail-only answer as the form's message", () => {
    expect(checkoutErrors({ detail: "Your cart is empty." }).formError).toBe("Your cart is empty.");
  });
});

import { describe, expect, it } from "vitest";
import { counted, minutesLeft, money, payWithin, STATE_LABELS, totalOf } from "./format.js";

const units = (count) => counted(count, "{count} unit", "{count} units");

describe("money", () => {
  it("shows dollars with two decimals", () => {
    expect(money(12.5)).toBe("$12.50");
    expect(money(3)).toBe("$3.00");
  });

  it("groups thousands", () => {
    expect(money(1234567.8)).toBe("$1,234,567.80");
  });

  it("accepts numbers sent as strings", () => {
    expect(money("19.99")).toBe("$19.99");
  });

  it("shows $0.00 for what is not a number", () => {
    expect(money(undefined)).toBe("$0.00");
    expect(money(null)).toBe("$0.00");
    expect(money("abc")).toBe("$0.00");
  });

  it("rounds to the cent", () => {
    expect(money(0.125 + 0.001)).toBe("$0.13");
  });
});

describe("totalOf", () => {
  it("multiplies price by quantity", () => {
    expect(totalOf(19.99, 3)).toBe(59.97);
  });

  it("counts in whole cents, without floating-point dust", () => {
    expect(totalOf(0.1, 3)).toBe(0.3);
    expect(totalOf(1.15, 7)).toBe(8.05);
  });

  it("accepts a price sent as a string", () => {
    expect(totalOf("2.50", 4)).toBe(10);
  });

  it("is 0 for a quantity of 0", () => {
    expect(totalOf(12.5, 0)).toBe(0);
  });
});

describe("STATE_LABELS", () => {
  it("names each order state of API.md", () => {
    expect(STATE_LABELS).toEqual({
      unpaid: "Unpaid",
      pending: "Pending",
      shipped: "Shipped",
      expired: "Expired",
      refunded: "Refunded",
    });
  });
});

describe("payWithin", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");

  it("counts whole minutes left, rounded up", () => {
    expect(minutesLeft("2026-01-01T12:29:01Z", now)).toBe(30);
    expect(payWithin({ state: "unpaid", expiresAt: "2026-01-01T12:30:00Z" }, now)).toBe(
      "Pay within 30 minutes",
    );
    expect(payWithin({ state: "unpaid", expiresAt: "2026-01-01T12:00:30Z" }, now)).toBe(
      "Pay within 1 minute",
    );
  });

  it("says nothing once the hold lapsed, when paid, or without a hold", () => {
    expect(payWithin({ state: "unpaid", expiresAt: "2026-01-01T11:59:00Z" }, now)).toBe("");
    expect(payWithin({ state: "pending", expiresAt: null }, now)).toBe("");
    expect(payWithin({ state: "expired", expiresAt: "2026-01-01T12:30:00Z" }, now)).toBe("");
    expect(payWithin({ state: "unpaid", expiresAt: null }, now)).toBe("");
  });
});

describe("counted", () => {
  it("says one of a thing in the singular and every other count in the plural", () => {
    expect(units(1)).toBe("1 unit");
    expect(units(2)).toBe("2 units");
    expect(units(0)).toBe("0 units");
    expect(units(120)).toBe("120 units");
  });

  it("fills in whole sentences, so the verb agrees too", () => {
    const sentence = ["Only {count} unit is left", "Only {count} units are left"];
    expect(counted(1, ...sentence)).toBe("Only 1 unit is left");
    expect(counted(7, ...sentence)).toBe("Only 7 units are left");
  });

  it("takes counts sent as strings", () => {
    expect(units("1")).toBe("1 unit");
  });
});

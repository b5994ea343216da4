import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "./api.js";
import {
  approveOrder,
  deleteOrder,
  isDeletable,
  isRefundable,
  partlyRefunded,
  priceRows,
  refundOrder,
} from "./orders.js";
import { notify } from "./toasts.jsx";

vi.mock("./api.js", () => ({ api: vi.fn() }));
vi.mock("./toasts.jsx", () => ({ notify: vi.fn() }));

const order = { _id: "o42", state: "unpaid" };

afterEach(() => {
  vi.clearAllMocks();
});

describe("deleteOrder", () => {
  it("deletes the order and says so", async () => {
    api.mockResolvedValueOnce({ deletedCount: 1 });
    await expect(deleteOrder(order)).resolves.toBeUndefined();
    expect(api).toHaveBeenCalledExactlyOnceWith("/api/booking/o42", { method: "DELETE" });
    expect(notify).toHaveBeenCalledExactlyOnceWith("Order deleted");
  });

  it("lets a failure through without the success toast", async () => {
    api.mockRejectedValueOnce(new Error("This order is paid."));
    await expect(deleteOrder(order)).rejects.toThrow("This order is paid.");
    expect(notify).not.toHaveBeenCalled();
  });
});

describe("approveOrder", () => {
  it("PUTs status approved and resolves to the changed order", async () => {
    const shipped = { _id: "o42", state: "shipped" };
    api.mockResolvedValueOnce(shipped);
    await expect(approveOrder(order)).resolves.toBe(shipped);
    expect(api).toHaveBeenCalledExactlyOnceWith("/api/booking/o42", {
      method: "PUT",
      body: { status: "approved", carrier: "", trackingNumber: "" },
    });
    expect(notify).toHaveBeenCalledExactlyOnceWith("status updated");
  });

  it("sends the carrier and the tracking number, trimmed", async () => {
    api.mockResolvedValueOnce({ _id: "o42", state: "shipped" });
    await approveOrder(order, { carrier: " UPS ", trackingNumber: " 1Z999 " });
    expect(api).toHaveBeenCalledExactlyOnceWith("/api/booking/o42", {
      method: "PUT",
      body: { status: "approved", carrier: "UPS", trackingNumber: "1Z999" },
    });
  });

  it("lets a failure through without the success toast", async () => {
    api.mockRejectedValueOnce(new Error("The order is not paid yet."));
    await expect(approveOrder(order)).rejects.toThrow("The order is not paid yet.");
    expect(notify).not.toHaveBeenCalled();
  });
});

describe("refundOrder", () => {
  it("refunds and resolves to the refunded order", async () => {
    api.mockResolvedValueOnce({ _id: "o42", state: "refunded" });
    await expect(refundOrder(order)).resolves.toEqual({ _id: "o42", state: "refunded" });
    expect(api).toHaveBeenCalledExactlyOnceWith("/api/booking/o42/refund", { method: "POST" });
    expect(notify).toHaveBeenCalledExactlyOnceWith("Order refunded");
  });
});

describe("what each state allows", () => {
  it("deletes unpaid and expired orders only, refunds paid ones only", () => {
    const states = ["unpaid", "expired", "pending", "shipped", "refunded"];
    expect(states.filter((state) => isDeletable({ state }))).toEqual(["unpaid", "expired"]);
    expect(states.filter((state) => isRefundable({ state }))).toEqual(["pending", "shipped"]);
  });
});

describe("priceRows", () => {
  const priced = {
    subtotal: 100,
    discount: 10,
    voucher: "RIDE10",
    shipping: { method: "Express", price: 14.99, eta: "1–2 business days" },
    tax: 16.68,
    taxIncluded: true,
    totalPrice: 104.99,
  };

  it("writes the breakdown as the order page does", () => {
    expect(priceRows(priced)).toEqual([
      ["Subtotal", "$100.00"],
      ["Discount (RIDE10)", "-$10.00"],
      ["Shipping", "Express: $14.99"],
      ["Tax", "Includes $16.68 tax"],
      ["Total", "$104.99"],
    ]);
  });

  it("leaves the discount out without one, and says Free and the tax added", () => {
    const plain = {
      ...priced,
      discount: 0,
      voucher: null,
      shipping: { method: "Standard", price: 0, eta: "" },
      tax: 2.5,
      taxIncluded: false,
    };
    expect(priceRows(plain)).toEqual([
      ["Subtotal", "$100.00"],
      ["Shipping", "Standard: Free"],
      ["Tax", "$2.50"],
      ["Total", "$104.99"],
    ]);
  });
});

describe("partlyRefunded", () => {
  it("says what returns refunded of an order still shipped", () => {
    expect(partlyRefunded({ state: "shipped", refunded: "15.00" })).toBe("Refunded $15.00");
  });

  it("says nothing before any refund, or once the state says refunded", () => {
    expect(partlyRefunded({ state: "shipped", refunded: "0.00" })).toBeNull();
    expect(partlyRefunded({ state: "pending" })).toBeNull();
    expect(partlyRefunded({ state: "refunded", refunded: "45.00" })).toBeNull();
  });
});

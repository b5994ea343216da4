// Order calls shared by My Order and Manage Orders (docs/api.md). The buttons that delete or
// refund ask "Are you sure?" first (AsyncButton's `confirm`).
import { api } from "./api.js";
import { money } from "./format.js";
import { notify } from "./toasts.jsx";

/** Delete an unpaid order (its stock goes back). */
export async function deleteOrder(order) {
  await api(`/api/booking/${order._id}`, { method: "DELETE" });
  notify("Order deleted");
}

/** Mark a paid order shipped, by `carrier` with `trackingNumber` (both optional); resolves to
 * the changed order. */
export async function approveOrder(order, { carrier = "", trackingNumber = "" } = {}) {
  const changed = await api(`/api/booking/${order._id}`, {
    method: "PUT",
    body: { status: "approved", carrier: carrier.trim(), trackingNumber: trackingNumber.trim() },
  });
  notify("status updated");
  return changed;
}

/** Refund a paid order in full; resolves to the refunded order. */
export async function refundOrder(order) {
  const refunded = await api(`/api/booking/${order._id}/refund`, { method: "POST" });
  notify("Order refunded");
  return refunded;
}

/** Whether an order can still be deleted (unpaid, held or expired). */
export function isDeletable(order) {
  return order.state === "unpaid" || order.state === "expired";
}

/** Whether a shop admin can refund an order (paid and not refunded yet). */
export function isRefundable(order) {
  return order.state === "pending" || order.state === "shipped";
}

/** An order's breakdown as a person reads it, [label, amount] each, as the order page and the
 * mails write it (orders.models.Booking.price_rows): "Subtotal", "Discount" with its code
 * (when there is one), "Shipping" with its method ("Free" at 0), "Tax" ("Includes $X tax"
 * when the prices include it), "Total". */
export function priceRows(order) {
  const rows = [["Subtotal", money(order.subtotal)]];
  if (order.discount || order.voucher) {
    const code = order.voucher ? ` (${order.voucher})` : "";
    rows.push([`Discount${code}`, order.discount ? money(-order.discount) : "$0.00"]);
  }
  const shipping = order.shipping ?? { method: "", price: 0 };
  const price = shipping.price ? money(shipping.price) : "Free";
  rows.push(["Shipping", shipping.method ? `${shipping.method}: ${price}` : price]);
  rows.push([
    "Tax",
    order.taxIncluded && order.tax ? `Includes ${money(order.tax)} tax` : money(order.tax),
  ]);
  rows.push(["Total", money(order.totalPrice)]);
  return rows;
}

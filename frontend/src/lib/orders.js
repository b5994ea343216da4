// Order calls shared by My Order and Manage Orders (docs/api.md). The buttons that delete or
// refund ask "Are you sure?" first (AsyncButton's `confirm`).
import { api } from "./api.js";
import { breakdownRows } from "./breakdown.js";
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

/** What returns refunded of an order still shipped ("Refunded $15.00"), or null: an order
 * refunded in full says so by its state. */
export function partlyRefunded(order) {
  if (order.state === "refunded" || !(Number(order.refunded) > 0)) return null;
  return `Refunded ${money(order.refunded)}`;
}

/** An order's breakdown as a person reads it (lib/breakdown.js). */
export function priceRows(order) {
  return breakdownRows({ ...order, total: order.totalPrice });
}

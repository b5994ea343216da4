// Order calls shared by My Order and Manage Orders (API.md, "Orders").
import { api } from "./api.js";
import { notify } from "./toasts.jsx";

export const CONFIRM_DELETE = "Are you sure?";

/** Ask "Are you sure?", then delete; true when the order is gone. */
export async function deleteOrder(order) {
  if (!window.confirm(CONFIRM_DELETE)) return false;
  await api(`/api/booking/${order._id}`, { method: "DELETE" });
  notify("Order deleted");
  return true;
}

/** Mark a paid order shipped; resolves to the changed order. */
export async function approveOrder(order) {
  const changed = await api(`/api/booking/${order._id}`, {
    method: "PUT",
    body: { status: "approved" },
  });
  notify("status updated");
  return changed;
}

/** Ask "Are you sure?", then refund a paid order in full; the refunded order, or null. */
export async function refundOrder(order) {
  if (!window.confirm(CONFIRM_DELETE)) return null;
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

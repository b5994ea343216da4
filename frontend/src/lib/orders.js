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

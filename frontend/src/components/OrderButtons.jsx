// The buttons of an order that My Order, the order page and Manage Orders share.
import { deleteOrder } from "../lib/orders.js";
import { toastFailure } from "../lib/toasts.jsx";
import { AsyncButton } from "./AsyncButton.jsx";

/** "Delete" an unpaid order after "Are you sure?"; onDeleted(id) once the server agreed. */
export function DeleteOrderButton({ order, onDeleted }) {
  return (
    <AsyncButton
      className="btn-sm btn-error"
      onClick={async () => {
        await deleteOrder(order);
        onDeleted(order._id);
      }}
      confirm
      onFailure={toastFailure}
      aria-label={`Delete the order of ${order.partsName}`}
    >
      Delete
    </AsyncButton>
  );
}

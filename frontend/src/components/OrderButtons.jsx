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

/** "Pay": the link to an order's payment page, whose address the server sends with the page
 * only while the order can be paid by card (unpaid, held, card payments on). */
export function PayLink({ href, order }) {
  return (
    <a href={href} className="btn btn-sm btn-success" aria-label={`Pay for ${order.partsName}`}>
      Pay
    </a>
  );
}

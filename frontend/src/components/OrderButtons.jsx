import { useCallback } from "react";
import { useBusy } from "../lib/busy.js";
import { deleteOrder } from "../lib/orders.js";
import { ActionButton } from "./ActionButton.jsx";

/** "Delete" an unpaid order after "Are you sure?"; onDeleted(id) once the server agreed. */
export function DeleteOrderButton({ order, onDeleted }) {
  const action = useCallback(async () => {
    if (await deleteOrder(order)) onDeleted(order._id);
  }, [order, onDeleted]);
  const [busy, run] = useBusy(action);
  return (
    <ActionButton
      busy={busy}
      className="btn-sm btn-error"
      onClick={run}
      aria-label={`Delete the order of ${order.partsName}`}
    >
      Delete
    </ActionButton>
  );
}

// The order page's actions: Pay (unpaid, held, card payments on) and Delete (unpaid or
// expired). After deleting, the shopper goes back to My Order.
import { useCallback, useEffect } from "react";
import { DeleteOrderButton } from "../components/OrderButtons.jsx";
import { takeFlash } from "../lib/flash.js";
import { mountIslands } from "../lib/mount.jsx";
import { isDeletable } from "../lib/orders.js";
import { notify } from "../lib/toasts.jsx";

const MY_ORDERS = "/dashboard/myorder";

function OrderActions({ order, paymentsOn = false }) {
  // The purchase form's "Order placed" arrives with this page (see lib/flash.js).
  useEffect(() => {
    const flash = takeFlash();
    if (flash) notify(flash.text, flash.level, { toastId: flash.text });
  }, []);
  const onDeleted = useCallback(() => window.location.assign(MY_ORDERS), []);
  const payable = paymentsOn && order.state === "unpaid";
  if (!payable && !isDeletable(order)) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {payable && (
        <a
          href={`/dashboard/payment/${order._id}`}
          className="btn btn-sm btn-success"
          aria-label={`Pay for ${order.partsName}`}
        >
          Pay
        </a>
      )}
      {isDeletable(order) && <DeleteOrderButton order={order} onDeleted={onDeleted} />}
    </div>
  );
}

mountIslands({ "order-actions": OrderActions });

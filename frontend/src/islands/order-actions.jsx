// The order page's actions: Pay (the server sends `payUrl` while the owner can pay: unpaid,
// held, card payments on) and Delete (unpaid or expired). After deleting, the shopper goes back
// to My Order.
import { useCallback, useEffect } from "react";
import { DeleteOrderButton, PayLink } from "../components/OrderButtons.jsx";
import { takeFlash } from "../lib/flash.js";
import { mountIslands } from "../lib/mount.jsx";
import { isDeletable } from "../lib/orders.js";
import { notify } from "../lib/toasts.jsx";

const MY_ORDERS = "/dashboard/myorder";

function OrderActions({ order, payUrl = null }) {
  // The purchase form's "Order placed" arrives with this page (see lib/flash.js).
  useEffect(() => {
    const flash = takeFlash();
    if (flash) notify(flash.text, flash.level, { toastId: flash.text });
  }, []);
  const onDeleted = useCallback(() => window.location.assign(MY_ORDERS), []);
  if (!payUrl && !isDeletable(order)) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {payUrl && <PayLink href={payUrl} order={order} />}
      {isDeletable(order) && <DeleteOrderButton order={order} onDeleted={onDeleted} />}
    </div>
  );
}

mountIslands({ "order-actions": OrderActions });

// My Order: the signed-in user's orders; unpaid ones can be paid or deleted.
import { useEffect } from "react";
import { DataTable } from "../components/DataTable.jsx";
import { MyOrderRow } from "../components/MyOrderRow.jsx";
import { takeFlash } from "../lib/flash.js";
import { mountIslands } from "../lib/mount.jsx";
import { useRows } from "../lib/rows.js";
import { notify } from "../lib/toasts.jsx";

const COLUMNS = [
  "No.",
  "Parts Name",
  "Price Per Unit",
  "Quantity",
  "Total Price",
  "Payment",
  "Action",
];

/** `payUrls`: the payment page of each order that can be paid now, by order id (the server's). */
function MyOrders({ orders = [], payUrls = {} }) {
  const [rows, remove] = useRows(orders);

  // The purchase form's "Order placed" arrives with this page (see lib/flash.js).
  useEffect(() => {
    const flash = takeFlash();
    if (flash) notify(flash.text, flash.level, { toastId: flash.text });
  }, []);

  if (rows.length === 0) {
    return (
      <div className="rounded-box border border-base-300 bg-base-100 p-6 text-center">
        <p className="mb-4">You have no orders yet.</p>
        <a href="/allparts" className="btn btn-primary">
          Browse all parts
        </a>
      </div>
    );
  }
  return (
    <DataTable caption="My orders" columns={COLUMNS} wide>
      {rows.map((order, index) => (
        <MyOrderRow
          key={order._id}
          number={index + 1}
          order={order}
          payUrl={payUrls[order._id]}
          onDeleted={remove}
        />
      ))}
    </DataTable>
  );
}

mountIslands({ "my-orders": MyOrders });

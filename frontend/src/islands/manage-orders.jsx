// Manage Orders (admin): one page of orders (the server reads the filters and the page);
// delete unpaid ones, approve (ship) paid ones, refund paid ones.
import { DataTable } from "../components/DataTable.jsx";
import { ManageOrderRow } from "../components/ManageOrderRow.jsx";
import { mountIslands } from "../lib/mount.jsx";
import { useRows } from "../lib/rows.js";

const COLUMNS = [
  "No.",
  "Date",
  "Email",
  "Name",
  "Parts Name",
  "Quantity",
  "Total",
  "Status",
  "Action",
];

/** `first` is the position of the page's first order in the whole list (page 2 starts at 51);
 * `searching` tells an empty search from a shop with no orders. */
function ManageOrders({ orders = [], first = 1, searching = false }) {
  const [rows, remove, replace] = useRows(orders);
  if (rows.length === 0) {
    return (
      <p className="rounded-box border border-base-300 bg-base-100 p-6">
        {searching ? "No orders match your search." : "There are no orders yet."}
      </p>
    );
  }
  return (
    <DataTable caption="Orders, newest first" columns={COLUMNS} wide>
      {rows.map((order, index) => (
        <ManageOrderRow
          key={order._id}
          number={first + index}
          order={order}
          onDeleted={remove}
          onChanged={replace}
        />
      ))}
    </DataTable>
  );
}

mountIslands({ "manage-orders": ManageOrders });

// Manage Orders (admin): every order; delete unpaid ones, approve (ship) paid ones.
import { DataTable } from "../components/DataTable.jsx";
import { ManageOrderRow } from "../components/ManageOrderRow.jsx";
import { mountIslands } from "../lib/mount.jsx";
import { useRows } from "../lib/rows.js";

const COLUMNS = ["No.", "Email", "Name", "Parts Name", "Quantity", "Status", "Action"];

function ManageOrders({ orders = [] }) {
  const [rows, remove, replace] = useRows(orders);
  if (rows.length === 0) {
    return (
      <p className="rounded-box border border-base-300 bg-base-100 p-6">There are no orders yet.</p>
    );
  }
  return (
    <DataTable caption="All orders" columns={COLUMNS}>
      {rows.map((order, index) => (
        <ManageOrderRow
          key={order._id}
          number={index + 1}
          order={order}
          onDeleted={remove}
          onChanged={replace}
        />
      ))}
    </DataTable>
  );
}

mountIslands({ "manage-orders": ManageOrders });

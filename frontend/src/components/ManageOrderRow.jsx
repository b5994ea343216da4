import { useCallback } from "react";
import { useBusy } from "../lib/busy.js";
import { approveOrder } from "../lib/orders.js";
import { ActionButton } from "./ActionButton.jsx";
import { DeleteOrderButton } from "./DeleteOrderButton.jsx";
import { StateBadge } from "./StateBadge.jsx";

function ApproveButton({ order, onChanged }) {
  const action = useCallback(async () => onChanged(await approveOrder(order)), [order, onChanged]);
  const [busy, run] = useBusy(action);
  return (
    <ActionButton
      busy={busy}
      className="btn-sm btn-primary"
      onClick={run}
      aria-label={`Approve the order of ${order.partsName} for ${order.email}`}
    >
      Approve
    </ActionButton>
  );
}

/** The action of each state: Unpaid → Delete, Pending → Approve, Shipped → none. */
function Action({ order, onDeleted, onChanged }) {
  if (order.state === "unpaid") return <DeleteOrderButton order={order} onDeleted={onDeleted} />;
  if (order.state === "pending") return <ApproveButton order={order} onChanged={onChanged} />;
  return null;
}

/** One row of Manage Orders. */
export function ManageOrderRow({ number, order, onDeleted, onChanged }) {
  return (
    <tr>
      <th scope="row">{number}</th>
      <td className="whitespace-nowrap">{order.email}</td>
      <td>{order.name}</td>
      <td className="min-w-40">{order.partsName}</td>
      <td>{order.quantity}</td>
      <td>
        <StateBadge state={order.state} />
      </td>
      <td>
        <Action order={order} onDeleted={onDeleted} onChanged={onChanged} />
      </td>
    </tr>
  );
}

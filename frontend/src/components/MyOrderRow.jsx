import { money } from "../lib/format.js";
import { DeleteOrderButton } from "./DeleteOrderButton.jsx";
import { StateBadge } from "./StateBadge.jsx";

/** Payment cell: "Pay" while unpaid, else "Paid" with the transaction id. */
function Payment({ order }) {
  if (!order.paid) {
    return (
      <a
        href={`/dashboard/payment/${order._id}`}
        className="btn btn-sm btn-success"
        aria-label={`Pay for ${order.partsName}`}
      >
        Pay
      </a>
    );
  }
  return (
    <div className="flex flex-col items-start gap-1">
      <span className="badge badge-success">Paid</span>
      {order.transactionId && (
        <span className="text-xs break-all">Transaction id: {order.transactionId}</span>
      )}
    </div>
  );
}

/** One row of My Order: unpaid orders can be paid or deleted, paid ones show their state. */
export function MyOrderRow({ number, order, onDeleted }) {
  return (
    <tr>
      <th scope="row">{number}</th>
      <td className="min-w-40">{order.partsName}</td>
      <td>{money(order.pricePerUnit)}</td>
      <td>{order.quantity}</td>
      <td>{money(order.totalPrice)}</td>
      <td>
        <Payment order={order} />
      </td>
      <td>
        {order.paid ? (
          <StateBadge state={order.state} />
        ) : (
          <DeleteOrderButton order={order} onDeleted={onDeleted} />
        )}
      </td>
    </tr>
  );
}

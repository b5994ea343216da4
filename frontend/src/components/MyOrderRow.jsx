import { money, payWithin } from "../lib/format.js";
import { isDeletable } from "../lib/orders.js";
import { DeleteOrderButton } from "./OrderButtons.jsx";
import { StateBadge } from "./StateBadge.jsx";

/** Payment cell: "Pay" while unpaid and held (when card payments are on), with the time left;
 * "Paid" with the transaction id once paid; the state otherwise (Expired, Refunded). */
function Payment({ order, paymentsOn }) {
  if (order.state === "unpaid") {
    const within = payWithin(order);
    return (
      <div className="flex flex-col items-start gap-1">
        {paymentsOn ? (
          <a
            href={`/dashboard/payment/${order._id}`}
            className="btn btn-sm btn-success"
            aria-label={`Pay for ${order.partsName}`}
          >
            Pay
          </a>
        ) : (
          <StateBadge state={order.state} />
        )}
        {within && <span className="text-xs">{within}</span>}
      </div>
    );
  }
  if (!order.paid) return <StateBadge state={order.state} />;
  return (
    <div className="flex flex-col items-start gap-1">
      <span className="badge badge-success">Paid</span>
      {order.transactionId && (
        <span className="text-xs break-all">Transaction id: {order.transactionId}</span>
      )}
    </div>
  );
}

/** One row of My Order: unpaid and expired orders can be deleted, the rest show their state. */
export function MyOrderRow({ number, order, onDeleted, paymentsOn = true }) {
  return (
    <tr>
      <th scope="row">{number}</th>
      <td>
        <a href={order.url} className="link link-primary block min-w-28 wrap-anywhere">
          {order.partsName}
        </a>
      </td>
      <td>{money(order.pricePerUnit)}</td>
      <td>{order.quantity}</td>
      <td>{money(order.totalPrice)}</td>
      <td>
        <Payment order={order} paymentsOn={paymentsOn} />
      </td>
      <td>
        {isDeletable(order) ? (
          <DeleteOrderButton order={order} onDeleted={onDeleted} />
        ) : (
          <StateBadge state={order.state} />
        )}
      </td>
    </tr>
  );
}

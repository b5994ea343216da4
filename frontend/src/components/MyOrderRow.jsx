import { money, payWithin } from "../lib/format.js";
import { isDeletable } from "../lib/orders.js";
import { DeleteOrderButton, PayLink } from "./OrderButtons.jsx";
import { OrderState, StateBadge } from "./StateBadge.jsx";

/** Payment cell: "Pay" while unpaid and held (when the server sends the order's `payUrl`: card
 * payments are on), with the time left; "Paid" with the transaction id once paid; the state
 * otherwise (Expired, Refunded). */
function Payment({ order, payUrl }) {
  if (order.state === "unpaid") {
    const within = payWithin(order);
    return (
      <div className="flex flex-col items-start gap-1">
        {payUrl ? <PayLink href={payUrl} order={order} /> : <StateBadge state={order.state} />}
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
export function MyOrderRow({ number, order, payUrl, onDeleted }) {
  return (
    <tr>
      <th scope="row">{number}</th>
      <td>
        <a href={order.url} className="link link-primary block min-w-28 wrap-anywhere">
          {order.partsName}
        </a>
      </td>
      {/* An order of several parts has no one unit price (null): its parts are on its page. */}
      <td>{order.pricePerUnit === null ? "Several" : money(order.pricePerUnit)}</td>
      <td>{order.quantity}</td>
      <td>{money(order.totalPrice)}</td>
      <td>
        <Payment order={order} payUrl={payUrl} />
      </td>
      <td>
        {isDeletable(order) ? (
          <DeleteOrderButton order={order} onDeleted={onDeleted} />
        ) : (
          <OrderState order={order} />
        )}
      </td>
    </tr>
  );
}

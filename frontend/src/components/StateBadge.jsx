import { STATE_LABELS } from "../lib/format.js";
import { partlyRefunded } from "../lib/orders.js";

const STYLES = {
  unpaid: "badge-warning",
  pending: "badge-info",
  shipped: "badge-success",
  expired: "badge-ghost",
  refunded: "badge-neutral",
};

/** Unpaid, Pending, Shipped, Expired or Refunded (an order's `state`). */
export function StateBadge({ state }) {
  return <span className={`badge ${STYLES[state] ?? ""}`}>{STATE_LABELS[state] ?? state}</span>;
}

/** An order's state, and what returns refunded of it while it is still shipped. */
export function OrderState({ order }) {
  const refunded = partlyRefunded(order);
  return (
    <>
      <StateBadge state={order.state} />
      {refunded && <span className="block text-xs mt-1">{refunded}</span>}
    </>
  );
}

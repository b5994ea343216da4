import { STATE_LABELS } from "../lib/format.js";

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

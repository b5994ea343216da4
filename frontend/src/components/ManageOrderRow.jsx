import { dateTime } from "../lib/dates.js";
import { money } from "../lib/format.js";
import { isDeletable, isRefundable, priceRows, refundOrder } from "../lib/orders.js";
import { toastFailure } from "../lib/toasts.jsx";
import { ApproveButton } from "./ApproveButton.jsx";
import { AsyncButton } from "./AsyncButton.jsx";
import { DeleteOrderButton } from "./OrderButtons.jsx";
import { OrderState } from "./StateBadge.jsx";

/** The actions of each state: Unpaid or Expired → Delete; Pending → Approve and Refund;
 * Shipped → Refund; Refunded → none. */
function Action({ order, onDeleted, onChanged }) {
  if (isDeletable(order)) return <DeleteOrderButton order={order} onDeleted={onDeleted} />;
  return (
    <div className="flex flex-wrap gap-2">
      {order.state === "pending" && (
        <ApproveButton order={order} onChanged={onChanged} onFailure={toastFailure} />
      )}
      {isRefundable(order) && (
        <AsyncButton
          className="btn-sm btn-warning"
          onClick={async () => onChanged(await refundOrder(order))}
          confirm
          onFailure={toastFailure}
          aria-label={`Refund the order of ${order.partsName} for ${order.email}`}
        >
          Refund
        </AsyncButton>
      )}
    </div>
  );
}

/** One row of Manage Orders: the part's name links to the order's page (address, phone).
 * Every text cell may wrap, so the nine columns fit beside the dashboard's sidebar on a
 * 1366 px screen with the actions on screen (narrower frames show the rows as cards). */
export function ManageOrderRow({ number, order, onDeleted, onChanged }) {
  return (
    <tr>
      <th scope="row">{number}</th>
      <td>
        <time className="block min-w-24" dateTime={order.createdAt}>
          {dateTime(order.createdAt)}
        </time>
      </td>
      <td>
        <span className="block min-w-32 wrap-anywhere">{order.email}</span>
      </td>
      <td>
        <span className="block min-w-24 wrap-anywhere">{order.name}</span>
      </td>
      <td>
        <a href={order.url} className="link link-primary block min-w-28 wrap-anywhere">
          {order.partsName}
        </a>
        <span className="block text-xs">Order #{order._id}</span>
      </td>
      <td>{order.quantity}</td>
      <td className="whitespace-nowrap">
        <span className="font-semibold">{money(order.totalPrice)}</span>
        <dl className="text-xs">
          {priceRows(order)
            .slice(0, -1)
            .map(([label, amount]) => (
              <div key={label}>
                <dt className="inline">{label}</dt> <dd className="inline">{amount}</dd>
              </div>
            ))}
        </dl>
      </td>
      <td>
        <OrderState order={order} />
      </td>
      <td>
        <Action order={order} onDeleted={onDeleted} onChanged={onChanged} />
      </td>
    </tr>
  );
}

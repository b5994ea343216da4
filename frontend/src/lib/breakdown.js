// What an order costs, as a person reads it: the one set of rows the checkout (a quote), Manage
// Orders (an order) and the order page and mails (orders.models.Booking.price_rows, its Python
// twin) show.
import { money } from "./format.js";

function amount(value) {
  return Number(value) || 0;
}

/** [label, amount] rows of a breakdown (a quote, or an order with `total` = its totalPrice):
 * "Subtotal"; "Discount" with its code (when there is a discount or a code); "Shipping" with
 * its method ("Free" at 0); "Tax" ("Includes $X tax" when the prices include it); "Total". */
export function breakdownRows({ subtotal, discount, voucher, shipping, tax, taxIncluded, total }) {
  const rows = [["Subtotal", money(subtotal)]];
  if (amount(discount) || voucher) {
    const code = voucher ? ` (${voucher})` : "";
    rows.push([`Discount${code}`, amount(discount) ? money(-amount(discount)) : "$0.00"]);
  }
  const { method = "", price = 0 } = shipping ?? {};
  const shown = amount(price) ? money(price) : "Free";
  rows.push(["Shipping", method ? `${method}: ${shown}` : shown]);
  rows.push(["Tax", taxIncluded && amount(tax) ? `Includes ${money(tax)} tax` : money(tax)]);
  rows.push(["Total", money(total)]);
  return rows;
}

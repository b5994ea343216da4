// The purchase form's rules, kept free of React so the unit tests can call them directly.
import { counted, totalOf } from "./format.js";

/** The server's sentence for too many (orders/services.py QUANTITY_ABOVE_STOCK), both forms. */
const ABOVE_STOCK = ["Only {count} unit is available", "Only {count} units are available"];

/** The form's editable fields, in page order (the first with an error gets the focus). */
export const FIELDS = ["phone", "address", "quantity"];

/** Too little stock to meet the part's minimum order quantity: nothing can be ordered. */
export function isSoldOut(part) {
  return part.availableQuantity < part.minimumOrderQuantity;
}

/** The quantity typed, as a whole number: digits, perhaps after a minus sign ("-3" is a whole
 * number, too few to order; "1e2", "2.0", "+3" are not, whatever Number() makes of them); NaN
 * otherwise. */
export function wholeCount(text) {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** The total shown under the form: price × quantity, 0 while the quantity is not a count. */
export function orderTotal(price, quantityText) {
  const quantity = wholeCount(quantityText);
  return quantity > 0 ? totalOf(price, quantity) : 0;
}

/** Whether the quantity is one the part can be ordered in (then the form shows a total). */
export function isOrderable(quantityText, part) {
  const quantity = wholeCount(quantityText);
  return quantity >= part.minimumOrderQuantity && quantity <= part.availableQuantity;
}

/** The spec's checks before sending (the server checks them again, with the same words). */
export function checkOrder({ phone, address, quantity }, part) {
  const errors = {};
  if (!phone.trim()) errors.phone = "Phone is required";
  if (!address.trim()) errors.address = "Address is required";
  const count = wholeCount(quantity);
  if (quantity.trim() === "") errors.quantity = "Quantity is required";
  else if (Number.isNaN(count)) errors.quantity = "Quantity must be a whole number";
  else if (count < part.minimumOrderQuantity) {
    errors.quantity = `Quantity must be at least ${part.minimumOrderQuantity} (the minimum order quantity)`;
  } else if (count > part.availableQuantity) {
    const left = part.availableQuantity;
    errors.quantity = counted(left, ...ABOVE_STOCK);
  }
  return errors;
}

/** The POST /api/booking body (API.md); the server ignores all but partId, quantity, address,
 * phone and shippingMethod (the picked delivery's id, left out when none is: the default). */
export function bookingBody(values, part, user, shippingMethod = null) {
  return {
    ...(shippingMethod == null ? {} : { shippingMethod }),
    partId: part._id,
    quantity: wholeCount(values.quantity),
    address: values.address.trim(),
    phone: values.phone.trim(),
    // The spec's payload; the server ignores these and uses the user and the part.
    name: user.name,
    email: user.email,
    partsName: part.name,
    pricePerUnit: part.price,
    totalPrice: orderTotal(part.price, values.quantity),
  };
}

/** A 400's messages: those of the form's fields, and the rest joined for under the form. */
export function splitErrors(error) {
  const fields = {};
  const other = [];
  for (const [name, message] of Object.entries(error.fields)) {
    if (FIELDS.includes(name)) fields[name] = message;
    else other.push(message);
  }
  return { fields, formError: other.join(" ") || (error.status === 400 ? "" : error.message) };
}

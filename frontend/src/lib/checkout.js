// The checkout's and the cart's money rules, kept free of React so the unit tests can call
// them directly: the breakdown rows as a person reads them, a delivery method's line, which
// method stays picked when the list changes, where the order goes (one line per saved
// address), the POST /api/checkout body and its 400's field messages.
import { money } from "./format.js";

/** The new address form's fields (API.md <address>), in page order, with their labels. */
export const SHIP_TO_FIELDS = [
  ["fullName", "Full name"],
  ["line1", "Address line 1"],
  ["line2", "Address line 2"],
  ["city", "City"],
  ["region", "State / region"],
  ["postcode", "Postcode"],
  ["country", "Country"],
  ["phone", "Phone"],
];

/** The "New address" choice of the Ship to group (a saved address is its id). */
export const NEW_ADDRESS = "new";

export const PRICES_CHANGED = "Prices changed since you looked: please check your order again.";

function amount(value) {
  return Number(value) || 0;
}

/** "Discount (CODE)" and its amount as the order page writes them (Booking.price_rows). */
function discountRow(discount, code) {
  return [`Discount${code ? ` (${code})` : ""}`, money(-amount(discount))];
}

/** A cart's totals, [label, amount] each: "Subtotal", "Discount" with the code (only when
 * there is one) and "Total". */
export function cartRows(cart) {
  const rows = [["Subtotal", money(cart.subtotal ?? cart.total)]];
  if (amount(cart.discount) > 0) rows.push(discountRow(cart.discount, cart.voucher?.code));
  rows.push(["Total", money(cart.total)]);
  return rows;
}

/** A delivery method's price as a person reads it: "Free" at 0. */
export function priceText(price) {
  return amount(price) ? money(price) : "Free";
}

/** Which method is picked once the list is `methods`: the one picked before while it is still
 * there, else the default, else the first; null for an empty list. */
export function pickMethod(methods, pickedId = null) {
  if (!methods?.length) return null;
  const kept = methods.find((method) => method._id === pickedId);
  if (kept) return kept._id;
  return (methods.find((method) => method.isDefault) ?? methods[0])._id;
}

/** GET /api/shipping-methods's address for a destination: ?country=XX (&region=YY). */
export function methodsPath({ country, region = "" }) {
  const query = new URLSearchParams({ country });
  if (region.trim()) query.set("region", region.trim());
  return `/api/shipping-methods?${query}`;
}

/** The same for one part's order (the purchase form): ?partId=&quantity= (the shop's country). */
export function partMethodsPath(partId, quantity) {
  return `/api/shipping-methods?${new URLSearchParams({ partId, quantity })}`;
}

/** A country's name from the page's list, the code itself when it is not there. */
export function countryName(countries, code) {
  return countries.find((country) => country.code === code)?.name ?? code;
}

/** A saved address on one line: "Jane Rider, 1 Main St, Apt 2, Springfield, IL 62701,
 * United States of America" (empty parts left out), as an order's one-line address. */
export function addressLine(address, countries = []) {
  const place = [address.region, address.postcode].filter(Boolean).join(" ");
  const parts = [address.fullName, address.line1, address.line2, address.city, place];
  return [...parts.filter(Boolean), countryName(countries, address.country)].join(", ");
}

/** An empty new address, in the shop's country. */
export function blankAddress(country) {
  return Object.fromEntries(
    SHIP_TO_FIELDS.map(([name]) => [name, name === "country" ? country : ""]),
  );
}

/** A new address as the form starts it: the last order's (its known fields), else blank. */
export function startAddress(country, last = {}) {
  const start = blankAddress(country);
  for (const [name] of SHIP_TO_FIELDS) {
    if (last[name]) start[name] = String(last[name]);
  }
  return start;
}

/** The new address as sent: every field trimmed. */
export function trimmedAddress(values) {
  return Object.fromEntries(
    SHIP_TO_FIELDS.map(([name]) => [name, String(values[name] ?? "").trim()]),
  );
}

/** POST /api/checkout's body: a saved address (`addressId`) or a new one (`shipTo` and
 * `saveAddress`), the picked method, and the total the page shows. */
export function checkoutBody({ shipTo, newAddress, saveAddress, methodId, total, email = null }) {
  const where =
    shipTo === NEW_ADDRESS
      ? { shipTo: trimmedAddress(newAddress), saveAddress: Boolean(saveAddress) }
      : { addressId: shipTo };
  const body = { ...where, expectedTotal: total };
  if (email != null) body.email = String(email).trim(); // a guest's order
  if (methodId != null) body.shippingMethod = methodId;
  return body;
}

function joined(value) {
  if (Array.isArray(value)) return value.map(String).join(" ");
  return value == null ? "" : String(value);
}

/** A checkout 400's messages: the new address's fields (`shipTo`, by field), the ship-to's
 * and the delivery's own sentences (`addressId`, `shippingMethod`; shown by their fieldsets),
 * and the rest joined for under the form. */
export function checkoutErrors(body) {
  const fields = {};
  const shipTo = [];
  const other = [];
  let delivery = "";
  for (const [name, value] of Object.entries(body ?? {})) {
    if (name === "shipTo" && value && typeof value === "object" && !Array.isArray(value)) {
      for (const [field, messages] of Object.entries(value)) {
        if (SHIP_TO_FIELDS.some(([known]) => known === field)) fields[field] = joined(messages);
        else shipTo.push(joined(messages));
      }
    } else if (name === "shipTo" || name === "addressId") {
      shipTo.push(joined(value));
    } else if (name === "email") {
      fields.email = joined(value); // a guest's e-mail, above the address
    } else if (name === "shippingMethod") {
      delivery = joined(value);
    } else {
      other.push(joined(value));
    }
  }
  return {
    fields,
    shipTo: shipTo.filter(Boolean).join(" "),
    delivery,
    formError: other.filter(Boolean).join(" "),
  };
}

/** The first field with an error, in page order (it gets the focus). */
export function firstErrorField(fields) {
  if (fields.email) return "email";
  return SHIP_TO_FIELDS.map(([name]) => name).find((name) => fields[name]) ?? null;
}

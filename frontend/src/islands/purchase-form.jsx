// The purchase form of /purchaseintent/<id>: posts the order to /api/booking, shows the
// server's field errors next to their fields, and on success goes to My Order.
import { useCallback, useState } from "react";
import { ActionButton } from "../components/ActionButton.jsx";
import { Field } from "../components/Field.jsx";
import { api } from "../lib/api.js";
import { flashNext } from "../lib/flash.js";
import { money, totalOf } from "../lib/format.js";
import { mountIslands } from "../lib/mount.jsx";

export const ORDER_PLACED = "Order placed";
const MY_ORDERS = "/dashboard/myorder";
const FIELDS = ["phone", "address", "quantity"];

/** The spec's checks before sending (the server checks them again, with the same words). */
function checkOrder({ phone, address, quantity }, part) {
  const errors = {};
  if (!phone.trim()) errors.phone = "Phone is required";
  if (!address.trim()) errors.address = "Address is required";
  const count = Number(quantity);
  if (quantity.trim() === "") errors.quantity = "Quantity is required";
  else if (!Number.isInteger(count)) errors.quantity = "Quantity must be a whole number";
  else if (count < part.minimumOrderQuantity) {
    errors.quantity = `Quantity must be at least ${part.minimumOrderQuantity} (the minimum order quantity)`;
  } else if (count > part.availableQuantity) {
    errors.quantity = `Only ${part.availableQuantity} units are available`;
  }
  return errors;
}

/** A 400's messages: those of the form's fields, and the rest joined for under the form. */
function splitErrors(error) {
  const fields = {};
  const other = [];
  for (const [name, message] of Object.entries(error.fields)) {
    if (FIELDS.includes(name)) fields[name] = message;
    else other.push(message);
  }
  return { fields, formError: other.join(" ") || (error.status === 400 ? "" : error.message) };
}

function PurchaseForm({ part, user }) {
  const [values, setValues] = useState({
    phone: "",
    address: "",
    quantity: String(part.minimumOrderQuantity),
  });
  const [errors, setErrors] = useState({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);
  const soldOut = part.availableQuantity < part.minimumOrderQuantity;
  const quantity = Number(values.quantity);
  const total = Number.isInteger(quantity) && quantity > 0 ? totalOf(part.price, quantity) : 0;

  const onChange = useCallback((event) => {
    const { name, value } = event.target;
    setValues((old) => ({ ...old, [name]: value }));
  }, []);

  async function onSubmit(event) {
    event.preventDefault();
    const found = checkOrder(values, part);
    setErrors(found);
    setFormError("");
    const first = FIELDS.find((name) => found[name]);
    if (first) {
      document.getElementById(`purchase-${first}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await api("/api/booking", {
        method: "POST",
        body: {
          partId: part._id,
          quantity,
          address: values.address.trim(),
          phone: values.phone.trim(),
          // The spec's payload; the server ignores these and uses the user and the part.
          name: user.name,
          email: user.email,
          partsName: part.name,
          pricePerUnit: part.price,
          totalPrice: total,
        },
      });
      flashNext(ORDER_PLACED);
      window.location.assign(MY_ORDERS);
    } catch (error) {
      const split = splitErrors(error);
      setErrors(split.fields);
      setFormError(split.formError);
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Purchase form">
      <Field id="purchase-name" label="Name" value={user.name} readOnly />
      <Field id="purchase-email" label="Email" type="email" value={user.email} readOnly />
      <Field id="purchase-part" label="Parts name" value={part.name} readOnly />
      <Field id="purchase-price" label="Price per unit ($)" value={part.price.toFixed(2)} readOnly />
      <Field
        id="purchase-phone"
        name="phone"
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="Your phone number"
        required
        value={values.phone}
        onChange={onChange}
        error={errors.phone}
      />
      <Field
        id="purchase-address"
        name="address"
        label="Address"
        autoComplete="street-address"
        placeholder="Where should we ship it?"
        required
        value={values.address}
        onChange={onChange}
        error={errors.address}
      />
      <Field
        id="purchase-quantity"
        name="quantity"
        label={`Quantity (${part.minimumOrderQuantity} to ${part.availableQuantity})`}
        type="number"
        inputMode="numeric"
        min={part.minimumOrderQuantity}
        max={part.availableQuantity}
        step={1}
        required
        value={values.quantity}
        onChange={onChange}
        error={errors.quantity}
      />
      <p className="text-lg font-semibold" aria-live="polite">
        Total: {money(total)}
      </p>
      {soldOut && (
        <p className="text-warning-content bg-warning/20 rounded-box p-3 text-sm">
          There is not enough stock of this part to place an order right now.
        </p>
      )}
      <ActionButton type="submit" busy={busy} disabled={soldOut} className="btn-primary">
        Submit
      </ActionButton>
      {formError && (
        <p className="text-error text-sm" role="alert">
          {formError}
        </p>
      )}
    </form>
  );
}

mountIslands({ "purchase-form": PurchaseForm });

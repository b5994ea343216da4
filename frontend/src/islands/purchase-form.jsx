// The purchase form of /purchaseintent/<id>: posts the order to /api/booking, shows the
// server's field errors next to their fields, and on success goes to the new order's page.
// "Add to cart" puts the quantity in the cart instead (only that field is checked then).
import { useCallback, useState } from "react";
import { AsyncButton } from "../components/AsyncButton.jsx";
import { Field } from "../components/Field.jsx";
import { ShipToFields } from "../components/ShipToFields.jsx";
import { api } from "../lib/api.js";
import { flashNext } from "../lib/flash.js";
import { money } from "../lib/format.js";
import { mountIslands } from "../lib/mount.jsx";
import {
  bookingBody,
  checkOrder,
  FIELDS,
  isOrderable,
  isSoldOut,
  orderTotal,
  splitErrors,
  wholeCount,
} from "../lib/purchase.js";

export const ORDER_PLACED = "Order placed";
const MY_ORDERS = "/dashboard/myorder";
let cart = null; // lib/add-to-cart.js, once "Add to cart" was pressed

function PurchaseForm({ part, user }) {
  const [values, setValues] = useState({
    phone: "",
    address: "",
    quantity: String(part.minimumOrderQuantity),
  });
  const [errors, setErrors] = useState({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);
  const soldOut = isSoldOut(part);
  const total = orderTotal(part.price, values.quantity);

  const onChange = useCallback((event) => {
    const { name, value } = event.target;
    setValues((old) => ({ ...old, [name]: value }));
  }, []);

  async function onAddToCart() {
    const quantity = checkOrder(values, part).quantity;
    setErrors({ quantity });
    setFormError("");
    if (quantity) {
      cart?.dismissAdded(); // an earlier "Added to cart" must not stand beside the message
      document.getElementById("purchase-quantity")?.focus();
      return;
    }
    // Loaded on first use, with the toasts (the form's page stays light).
    cart ??= await import("../lib/add-to-cart.js");
    try {
      await cart.addToCart(part._id, wholeCount(values.quantity));
    } catch (error) {
      setErrors({ quantity: cart.refusal(error) });
      document.getElementById("purchase-quantity")?.focus();
    }
  }

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
      const booking = await api("/api/booking", {
        method: "POST",
        body: bookingBody(values, part, user),
      });
      flashNext(ORDER_PLACED);
      window.location.assign(booking?.url || MY_ORDERS);
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
      <Field
        id="purchase-price"
        label="Price per unit ($)"
        value={part.price.toFixed(2)}
        readOnly
      />
      <ShipToFields
        prefix="purchase"
        names={["phone", "address"]}
        values={values}
        errors={errors}
        onChange={onChange}
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
        {isOrderable(values.quantity, part) ? `Total: ${money(total)}` : ""}
      </p>
      {soldOut && (
        <p className="text-warning-content bg-warning/20 rounded-box p-3 text-sm">
          There is not enough stock of this part to place an order right now.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <AsyncButton type="submit" busy={busy} disabled={soldOut} className="btn-primary flex-1">
          Submit
        </AsyncButton>
        <AsyncButton
          onClick={onAddToCart}
          disabled={soldOut || busy}
          className="btn-outline flex-1"
        >
          Add to cart
        </AsyncButton>
      </div>
      {formError && (
        <p className="text-error text-sm" role="alert">
          {formError}
        </p>
      )}
    </form>
  );
}

mountIslands({ "purchase-form": PurchaseForm });

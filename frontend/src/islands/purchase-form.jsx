// The purchase form of /purchaseintent/<id>: posts the order to /api/booking, shows the
// server's field errors next to their fields, and on success goes to the new order's page.
// "Delivery" offers the methods that deliver this part in that quantity to the shop's country
// (fetched when the form opens and, after a pause, when the quantity changes), and the total
// is the picked one's (shipping included); when they cannot be had, the form works without
// (the server ships by its default method).
// "Add to cart" puts the quantity in the cart instead (only that field is checked then).
import { useCallback, useEffect, useRef, useState } from "react";
import { AsyncButton } from "../components/AsyncButton.jsx";
import { DeliveryOptions } from "../components/DeliveryOptions.jsx";
import { Field } from "../components/Field.jsx";
import { ShipToFields } from "../components/ShipToFields.jsx";
import { api } from "../lib/api.js";
import { partMethodsPath, pickMethod } from "../lib/checkout.js";
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
const QUANTITY_PAUSE_MS = 400; // the quantity is typed: ask once the typing stops

/** The methods for `quantity` of the part and the picked one: {methods, quantity} of the last
 * answer (none until one comes, or when it fails). */
function useDelivery(part, quantityText) {
  const [priced, setPriced] = useState({ methods: [], quantity: null });
  const [picked, setPicked] = useState(null);
  const orderable = isOrderable(quantityText, part);
  const quantity = wholeCount(quantityText);
  const asked = useRef(false);

  useEffect(() => {
    if (!orderable) return;
    let gone = false;
    const first = !asked.current; // when the form opens: at once
    asked.current = true;
    const timer = setTimeout(
      async () => {
        try {
          const methods = await api(partMethodsPath(part._id, quantity));
          if (gone || !Array.isArray(methods)) return;
          setPriced({ methods, quantity });
          setPicked((old) => pickMethod(methods, old));
        } catch {
          if (!gone) setPriced({ methods: [], quantity: null }); // the server's default, then
        }
      },
      first ? 0 : QUANTITY_PAUSE_MS,
    );
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [orderable, quantity, part._id]);

  const method = priced.methods.find((option) => option._id === picked) ?? null;
  const current = method && priced.quantity === quantity ? method.quote : null;
  return { methods: priced.methods, picked: method ? picked : null, setPicked, quote: current };
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
  const soldOut = isSoldOut(part);
  const delivery = useDelivery(part, values.quantity);
  const total = delivery.quote ? delivery.quote.total : orderTotal(part.price, values.quantity);

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
        body: bookingBody(values, part, user, delivery.picked),
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
      {delivery.methods.length > 0 && (
        <fieldset className="fieldset flex flex-col gap-2 border border-base-300 rounded-box p-3">
          <legend className="fieldset-legend">Delivery</legend>
          <DeliveryOptions
            methods={delivery.methods}
            picked={delivery.picked}
            onPick={delivery.setPicked}
          />
        </fieldset>
      )}
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

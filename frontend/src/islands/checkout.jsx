// The checkout page (/checkout): the cart's lines and total, where the order goes (the last
// order's address and phone to start from), and "Place order", which sends the total shown and
// goes straight on to pay the new order (its payment page; its own page when card payments are
// not configured). A line that can no longer be had (409 with its partId) sends the shopper
// back to the cart with that line's problem shown there (lib/cart.js); prices changed since the
// page was shown (409 with the cart) show the cart as it is now, with what changed, to check
// and place again.
import { useCallback, useState } from "react";
import { AsyncButton } from "../components/AsyncButton.jsx";
import { ShipToFields } from "../components/ShipToFields.jsx";
import { api } from "../lib/api.js";
import { afterCheckout, keepCartProblem } from "../lib/cart.js";
import { flashNext } from "../lib/flash.js";
import { money } from "../lib/format.js";
import { mountIslands } from "../lib/mount.jsx";

export const ORDER_PLACED = "Order placed";
const FIELDS = ["address", "phone"];

function Checkout({ cart: first, address = "", phone = "", cardPayments = false }) {
  const [cart, setCart] = useState(first);
  const [values, setValues] = useState({ address, phone });
  const [errors, setErrors] = useState({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);

  const onChange = useCallback((event) => {
    const { name, value } = event.target;
    setValues((old) => ({ ...old, [name]: value }));
  }, []);

  async function onSubmit(event) {
    event.preventDefault();
    setBusy(true);
    setFormError("");
    try {
      const booking = await api("/api/checkout", {
        method: "POST",
        body: {
          address: values.address.trim(),
          phone: values.phone.trim(),
          expectedTotal: cart.total,
        },
      });
      if (!cardPayments) flashNext(ORDER_PLACED); // the order's page shows it
      window.location.assign(afterCheckout(booking, cardPayments));
    } catch (error) {
      if (error.status === 409 && error.body.partId) {
        keepCartProblem(error.body.partId, error.body.detail);
        window.location.assign("/cart");
        return;
      }
      if (error.status === 409 && error.body.cart) {
        setCart(error.body.cart); // the total to place it at now: sent with the next try
        setErrors({});
        setFormError(error.message);
        setBusy(false);
        return;
      }
      const fields = {};
      for (const name of FIELDS) if (error.fields[name]) fields[name] = error.fields[name];
      setErrors(fields);
      setFormError(Object.keys(fields).length ? "" : error.message);
      const first = FIELDS.find((name) => fields[name]);
      if (first) document.getElementById(`checkout-${first}`)?.focus();
      setBusy(false);
    }
  }

  return (
    <div className="grid grid-cols-1 lg:grid-cols-2 gap-8 items-start">
      <section aria-labelledby="checkout-lines" className="flex flex-col gap-3">
        <h2 id="checkout-lines" className="text-xl font-semibold">
          Your order
        </h2>
        <ul className="flex flex-col">
          {cart.lines.map((line) => (
            <li
              key={line.partId}
              className="flex flex-wrap justify-between gap-2 p-2 border-b border-base-200"
            >
              <span className="break-words">
                <a href={line.url} className="link link-hover">
                  {line.name}
                </a>{" "}
                × {line.quantity}
              </span>
              <span className="font-semibold">{money(line.lineTotal)}</span>
              {line.notice && <span className="text-warning-content w-full">{line.notice}</span>}
              {line.problem && <span className="text-error w-full">{line.problem}</span>}
            </li>
          ))}
        </ul>
        <p className="text-xl font-semibold">Total: {money(cart.total)}</p>
      </section>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Checkout">
        <ShipToFields
          prefix="checkout"
          names={FIELDS}
          values={values}
          errors={errors}
          onChange={onChange}
        />
        <AsyncButton type="submit" busy={busy} className="btn-primary">
          Place order
        </AsyncButton>
        {formError && (
          <p className="text-error text-sm" role="alert">
            {formError}
          </p>
        )}
      </form>
    </div>
  );
}

mountIslands({ checkout: Checkout });

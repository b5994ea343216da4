// The checkout page (/checkout): the cart's lines; "Ship to" (the saved addresses, the default
// picked, and "New address": a form, shown at once to a shopper with none saved, with "Save
// this address"); "Delivery" (the methods that deliver the cart there, each with its price and
// eta, fetched again when the country, or after a pause the region, changes; none: "We do not
// deliver to {country}." and no Place order); the picked method's breakdown (Subtotal, Discount,
// Shipping, Tax, Total); and "Place order", which sends where, how and the total shown, then
// goes straight on to pay the new order (its payment page; its own page when card payments are
// not configured). A line that can no longer be had (409 with its partId) sends the shopper
// back to the cart with that line's problem shown there (lib/cart.js); prices changed (409 with
// the cart) or a voucher that no longer applies (409 with the voucher) say so and fetch the
// methods again, so the new total shows before the shopper places the order again.
// A visitor (`guest`) is offered "Sign in", "Create account" or "Continue as guest": then the
// form asks an "E-mail" above the address (no address book), and the new guest's order goes
// to its private page (`guestUrl`), which pays it.
import { useCallback, useEffect, useRef, useState } from "react";
import { AsyncButton } from "../components/AsyncButton.jsx";
import { DeliveryOptions } from "../components/DeliveryOptions.jsx";
import { Field } from "../components/Field.jsx";
import { Totals } from "../components/Totals.jsx";
import { api } from "../lib/api.js";
import { breakdownRows } from "../lib/breakdown.js";
import { afterCheckout, keepCartProblem } from "../lib/cart.js";
import {
  addressLine,
  cartRows,
  checkoutBody,
  checkoutErrors,
  countryName,
  firstErrorField,
  methodsPath,
  NEW_ADDRESS,
  pickMethod,
  startAddress,
} from "../lib/checkout.js";
import { flashNext } from "../lib/flash.js";
import { money } from "../lib/format.js";
import { mountIslands } from "../lib/mount.jsx";

export const ORDER_PLACED = "Order placed";
const REGION_PAUSE_MS = 400; // the region is typed: ask once the typing stops
const NO_ERRORS = { fields: {}, shipTo: "", delivery: "", formError: "" };

const TEXT_FIELDS = {
  fullName: { label: "Full name", autoComplete: "name", required: true },
  line1: { label: "Address line 1", autoComplete: "address-line1", required: true },
  line2: { label: "Address line 2", autoComplete: "address-line2" },
  city: { label: "City", autoComplete: "address-level2", required: true },
  region: { label: "State / region", autoComplete: "address-level1" },
  postcode: { label: "Postcode", autoComplete: "postal-code", required: true },
};

function CountrySelect({ value, countries, error, onChange }) {
  const id = "checkout-country";
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Country
      </label>
      <select
        id={id}
        name="country"
        autoComplete="country"
        required
        className={`select w-full ${error ? "select-error" : ""}`}
        value={value}
        onChange={onChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="text-error text-sm">
          {error}
        </p>
      )}
    </div>
  );
}

/** The new address's fields (ids checkout-<name>) and "Save this address". */
function AddressForm({ values, errors, countries, save, onChange, onSave, canSave = true }) {
  const text = (name) => (
    <Field
      key={name}
      id={`checkout-${name}`}
      name={name}
      value={values[name]}
      onChange={onChange}
      error={errors[name]}
      {...TEXT_FIELDS[name]}
    />
  );
  return (
    <div className="flex flex-col gap-3">
      {["fullName", "line1", "line2", "city"].map(text)}
      <div className="grid grid-cols-1 sm:grid-cols-2 gap-3">
        {text("region")}
        {text("postcode")}
      </div>
      <CountrySelect
        value={values.country}
        countries={countries}
        error={errors.country}
        onChange={onChange}
      />
      <Field
        id="checkout-phone"
        name="phone"
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        required
        value={values.phone}
        onChange={onChange}
        error={errors.phone}
      />
      {canSave && (
        <label className="flex items-center gap-2 cursor-pointer">
          <input
            type="checkbox"
            name="saveAddress"
            className="checkbox checkbox-sm"
            checked={save}
            onChange={(event) => onSave(event.target.checked)}
          />
          <span>Save this address</span>
        </label>
      )}
    </div>
  );
}

/** The methods that deliver there, and the one picked; fetched again when the destination
 * changes (at once for a country, after a pause for a region) or `refresh` is called. */
function useMethods(first, destination) {
  const [methods, setMethods] = useState(first);
  const [picked, setPicked] = useState(() => pickMethod(first));
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState("");
  const [asked, setAsked] = useState(0);
  const shown = useRef({ ...destination, asked: 0 }); // what `methods` are for
  const latest = useRef(0);
  const { country, region } = destination;

  useEffect(() => {
    const before = shown.current;
    if (before.country === country && before.region === region && before.asked === asked) {
      latest.current += 1; // back where the list is: an answer on its way is old news
      setLoading(false);
      return;
    }
    const pause = before.country === country && before.asked === asked ? REGION_PAUSE_MS : 0;
    const ask = ++latest.current;
    setLoading(true);
    const timer = setTimeout(async () => {
      try {
        const list = await api(methodsPath({ country, region }));
        if (ask !== latest.current) return;
        setMethods(list);
        setPicked((old) => pickMethod(list, old));
        setFailure("");
      } catch (error) {
        if (ask !== latest.current) return;
        setMethods([]);
        setFailure(error.fields.country || error.message);
      }
      shown.current = { country, region, asked };
      setLoading(false);
    }, pause);
    return () => clearTimeout(timer);
  }, [country, region, asked]);

  const refresh = useCallback(() => setAsked((count) => count + 1), []);
  return { methods, picked, setPicked, loading, failure, refresh };
}

function Lines({ lines }) {
  return (
    <ul className="flex flex-col">
      {lines.map((line) => (
        <li
          key={line.partId}
          className="flex flex-wrap justify-between gap-2 p-2 border-b border-base-200"
        >
          <span className="break-words min-w-0">
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
  );
}

/** A visitor's choice before the form: sign in, create an account, or go on as a guest. */
function GuestChoice({ loginUrl, signupUrl, onGuest }) {
  return (
    <section
      aria-labelledby="checkout-who"
      className="flex flex-col gap-3 border border-base-300 rounded-box p-4 max-w-xl"
    >
      <h2 id="checkout-who" className="text-xl font-semibold">
        How would you like to check out?
      </h2>
      <div className="flex flex-wrap gap-2">
        <a href={loginUrl} className="btn btn-outline">
          Sign in
        </a>
        <a href={signupUrl} className="btn btn-outline">
          Create account
        </a>
        <button type="button" className="btn btn-primary" onClick={onGuest}>
          Continue as guest
        </button>
      </div>
      <p className="text-sm text-base-content/70">
        As a guest you get your order's own page by e-mail; an account you make later with the same
        e-mail shows it in My Order.
      </p>
    </section>
  );
}

function Checkout({
  cart: first,
  addresses = [],
  lastShipTo = {},
  methods: firstMethods = [],
  countries = [],
  shopCountry = "US",
  cardPayments = false,
  guest = false,
  loginUrl = "/login",
  signupUrl = "/signup",
}) {
  const [asGuest, setAsGuest] = useState(false);
  const [email, setEmail] = useState("");
  const [cart, setCart] = useState(first);
  const [shipTo, setShipTo] = useState(addresses[0]?._id ?? NEW_ADDRESS);
  const [newAddress, setNewAddress] = useState(() => startAddress(shopCountry, lastShipTo));
  const [saveAddress, setSaveAddress] = useState(!addresses.length && !guest);
  const [errors, setErrors] = useState(NO_ERRORS);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);

  const saved = addresses.find((address) => address._id === shipTo);
  const destination = saved
    ? { country: saved.country, region: saved.region ?? "" }
    : { country: newAddress.country, region: newAddress.region };
  const delivery = useMethods(firstMethods, destination);
  const method = delivery.methods.find((option) => option._id === delivery.picked) ?? null;
  const quote = method?.quote;
  const canPlace = Boolean(quote) && !delivery.loading && !delivery.failure;

  const onAddressChange = useCallback((event) => {
    const { name, value } = event.target;
    setNewAddress((old) => ({ ...old, [name]: value }));
  }, []);

  function onPickShipTo(event) {
    const { value } = event.target;
    setShipTo(value === NEW_ADDRESS ? NEW_ADDRESS : Number(value));
    setErrors(NO_ERRORS);
  }

  async function onSubmit(event) {
    event.preventDefault();
    if (!canPlace) return;
    setBusy(true);
    setNotice("");
    setErrors(NO_ERRORS);
    try {
      const booking = await api("/api/checkout", {
        method: "POST",
        body: checkoutBody({
          shipTo,
          newAddress,
          saveAddress,
          methodId: method._id,
          total: quote.total,
          email: guest ? email : null,
        }),
      });
      if (!cardPayments && !booking.guestUrl) flashNext(ORDER_PLACED); // the order's page shows it
      window.location.assign(afterCheckout(booking, cardPayments));
    } catch (error) {
      setBusy(false);
      if (error.status === 409 && error.body.partId) {
        keepCartProblem(error.body.partId, error.body.detail);
        window.location.assign("/cart");
        return;
      }
      if (error.status === 409 && (error.body.cart || error.body.voucher)) {
        if (error.body.cart) setCart(error.body.cart);
        else api("/api/cart").then(setCart, () => {}); // the voucher's problem, said above the total
        setNotice(error.message);
        delivery.refresh(); // the new total, to place it at now
        return;
      }
      if (error.status !== 400) {
        setErrors({ ...NO_ERRORS, formError: error.message });
        return;
      }
      const found = checkoutErrors(error.body);
      setErrors(found);
      const field = firstErrorField(found.fields);
      if (field) document.getElementById(`checkout-${field}`)?.focus();
      else if (found.shipTo) document.querySelector('input[name="shipTo"]:checked')?.focus();
      else if (found.delivery) document.querySelector('input[name="delivery"]:checked')?.focus();
    }
  }

  const countryShown = countryName(countries, destination.country);
  if (guest && !asGuest) {
    return (
      <GuestChoice loginUrl={loginUrl} signupUrl={signupUrl} onGuest={() => setAsGuest(true)} />
    );
  }
  return (
    <div className="grid grid-cols-1 lg:grid-cols-2 gap-8 items-start">
      <section aria-labelledby="checkout-lines" className="flex flex-col gap-3 min-w-0">
        <h2 id="checkout-lines" className="text-xl font-semibold">
          Your order
        </h2>
        <Lines lines={cart.lines} />
      </section>
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4 min-w-0"
        aria-label="Checkout"
      >
        {guest && (
          <Field
            id="checkout-email"
            name="email"
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={errors.fields.email}
          />
        )}
        <fieldset
          className="fieldset flex flex-col gap-2 border border-base-300 rounded-box p-4 min-w-0"
          aria-describedby={errors.shipTo ? "checkout-shipto-error" : undefined}
        >
          <legend className="fieldset-legend text-lg">Ship to</legend>
          {addresses.length > 0 && (
            <div className="flex flex-col gap-2">
              {addresses.map((address) => (
                <label key={address._id} className="flex items-start gap-2 cursor-pointer">
                  <input
                    type="radio"
                    name="shipTo"
                    value={address._id}
                    className="radio radio-sm mt-0.5 shrink-0"
                    checked={shipTo === address._id}
                    onChange={onPickShipTo}
                  />
                  <span className="break-words min-w-0 text-base">
                    {addressLine(address, countries)}
                  </span>
                </label>
              ))}
              <label className="flex items-start gap-2 cursor-pointer">
                <input
                  type="radio"
                  name="shipTo"
                  value={NEW_ADDRESS}
                  className="radio radio-sm mt-0.5 shrink-0"
                  checked={shipTo === NEW_ADDRESS}
                  onChange={onPickShipTo}
                />
                <span className="text-base">New address</span>
              </label>
            </div>
          )}
          {shipTo === NEW_ADDRESS && (
            <AddressForm
              values={newAddress}
              errors={errors.fields}
              countries={countries}
              save={saveAddress}
              onChange={onAddressChange}
              onSave={setSaveAddress}
              canSave={!guest}
            />
          )}
          {errors.shipTo && (
            <p id="checkout-shipto-error" className="text-error text-sm">
              {errors.shipTo}
            </p>
          )}
        </fieldset>
        <fieldset
          className="fieldset flex flex-col gap-2 border border-base-300 rounded-box p-4 min-w-0"
          aria-busy={delivery.loading || undefined}
          aria-describedby={
            errors.delivery || delivery.failure ? "checkout-delivery-error" : undefined
          }
        >
          <legend className="fieldset-legend text-lg">Delivery</legend>
          <DeliveryOptions
            methods={delivery.methods}
            picked={delivery.picked}
            onPick={delivery.setPicked}
          />
          {!delivery.methods.length && !delivery.loading && !delivery.failure && (
            <p className="text-base font-semibold" role="status">
              We do not deliver to {countryShown}.
            </p>
          )}
          {(errors.delivery || delivery.failure) && (
            <p id="checkout-delivery-error" className="text-error text-sm">
              {errors.delivery || delivery.failure}
            </p>
          )}
        </fieldset>
        <section aria-labelledby="checkout-total" aria-busy={delivery.loading || undefined}>
          <h2 id="checkout-total" className="sr-only">
            Order total
          </h2>
          {cart.voucherProblem && (
            <p className="text-warning-content text-sm mb-2">
              {cart.voucher?.code ? `${cart.voucher.code}: ` : ""}
              {cart.voucherProblem}
            </p>
          )}
          <Totals rows={quote ? breakdownRows(quote) : cartRows(cart)} />
        </section>
        {/* While the methods are asked again the button stays focusable (aria-disabled), so a
            keyboard user's Tab still reaches it; with no method to pick it is disabled. */}
        <AsyncButton
          type="submit"
          busy={busy}
          disabled={!quote || Boolean(delivery.failure)}
          aria-disabled={delivery.loading || undefined}
          className={`btn-primary ${delivery.loading ? "btn-disabled" : ""}`}
        >
          Place order
        </AsyncButton>
        {(notice || errors.formError) && (
          <p className="text-error text-sm" role="alert">
            {notice || errors.formError}
          </p>
        )}
      </form>
    </div>
  );
}

mountIslands({ checkout: Checkout });

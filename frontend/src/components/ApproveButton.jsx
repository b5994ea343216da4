import { useId, useRef, useState } from "react";
import { approveOrder } from "../lib/orders.js";
import { AsyncButton } from "./AsyncButton.jsx";
import { Field } from "./Field.jsx";

const CARRIERS = ["UPS", "USPS", "FedEx", "DHL"];

/** Manage Orders' "Approve": a dialog asks how the order was shipped (a carrier and a
 * tracking number, both may be left empty), then approves it; field errors stay in the
 * dialog, anything else goes to `onFailure`. */
export function ApproveButton({ order, onChanged, onFailure }) {
  const dialog = useRef(null);
  const id = useId();
  const [values, setValues] = useState({ carrier: "", trackingNumber: "" });
  const [errors, setErrors] = useState({});
  const [busy, setBusy] = useState(false);

  function onChange(event) {
    const { name, value } = event.target;
    setValues((old) => ({ ...old, [name]: value }));
  }

  async function onSubmit(event) {
    event.preventDefault();
    setBusy(true);
    try {
      const changed = await approveOrder(order, values);
      dialog.current?.close();
      onChanged(changed);
    } catch (error) {
      const fields = error.fields ?? {};
      if (fields.carrier || fields.trackingNumber) {
        setErrors(fields);
      } else {
        dialog.current?.close();
        onFailure(error);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className="btn btn-sm btn-primary whitespace-nowrap"
        onClick={() => dialog.current?.showModal()}
        aria-label={`Approve the order of ${order.partsName} for ${order.email}`}
      >
        Approve
      </button>
      <dialog ref={dialog} className="modal" aria-labelledby={`${id}-title`}>
        <form noValidate onSubmit={onSubmit} className="modal-box flex flex-col gap-3">
          <h3 id={`${id}-title`} className="text-lg font-semibold">
            Ship order #{order._id}
          </h3>
          <p className="text-sm">Both may be left empty.</p>
          <Field
            id={`${id}-carrier`}
            name="carrier"
            label="Carrier"
            list={`${id}-carriers`}
            maxLength={40}
            autoComplete="off"
            value={values.carrier}
            onChange={onChange}
            error={errors.carrier}
          />
          <datalist id={`${id}-carriers`}>
            {CARRIERS.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
          <Field
            id={`${id}-tracking`}
            name="trackingNumber"
            label="Tracking number"
            maxLength={64}
            autoComplete="off"
            value={values.trackingNumber}
            onChange={onChange}
            error={errors.trackingNumber}
          />
          <div className="modal-action">
            <button type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <AsyncButton type="submit" busy={busy} className="btn-primary">
              Approve
            </AsyncButton>
          </div>
        </form>
      </dialog>
    </>
  );
}

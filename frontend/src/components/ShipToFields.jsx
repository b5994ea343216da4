import { Field } from "./Field.jsx";

const FIELD_PROPS = {
  phone: {
    label: "Phone",
    type: "tel",
    inputMode: "tel",
    autoComplete: "tel",
    placeholder: "Your phone number",
  },
  address: {
    label: "Address",
    autoComplete: "street-address",
    placeholder: "Where should we ship it?",
  },
};

/**
 * Where an order goes: the phone and address fields of the purchase form and the checkout, in
 * the order `names` gives, with ids `${prefix}-phone` and `${prefix}-address`.
 */
export function ShipToFields({ prefix, names, values, errors, onChange }) {
  return names.map((name) => (
    <Field
      key={name}
      id={`${prefix}-${name}`}
      name={name}
      required
      value={values[name]}
      onChange={onChange}
      error={errors[name]}
      {...FIELD_PROPS[name]}
    />
  ));
}

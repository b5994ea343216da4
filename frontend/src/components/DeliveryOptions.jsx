import { priceText } from "../lib/checkout.js";

/** The delivery methods as radios (name "delivery"): each its name, its price ("Free" at 0)
 * and its eta; `picked` is the checked one's id. */
export function DeliveryOptions({ methods, picked, onPick }) {
  return methods.map((option) => (
    <label key={option._id} className="flex items-start gap-2 cursor-pointer">
      <input
        type="radio"
        name="delivery"
        value={option._id}
        className="radio radio-sm mt-0.5 shrink-0"
        checked={picked === option._id}
        onChange={() => onPick(option._id)}
      />
      <span className="flex flex-col text-base min-w-0">
        <span>
          <span className="font-medium">{option.name}</span> · {priceText(option.price)}
        </span>
        {option.eta && <span className="text-sm text-base-content/70">{option.eta}</span>}
      </span>
    </label>
  ));
}

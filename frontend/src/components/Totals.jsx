/**
 * A breakdown of money, [label, amount] rows (lib/checkout.js cartRows, quoteRows), as a
 * description list; the last row (the total) is a polite live region, so a screen reader
 * hears the new total when it changes.
 */
export function Totals({ rows, className = "" }) {
  const last = rows.length - 1;
  return (
    <dl className={`flex flex-col gap-1 ${className}`}>
      {rows.map(([name, amount], index) => (
        <div
          key={name}
          className={`flex flex-wrap justify-between gap-x-6 ${index === last ? "text-xl font-semibold border-t border-base-300 pt-1" : ""}`}
          aria-live={index === last ? "polite" : undefined}
          aria-atomic={index === last ? "true" : undefined}
        >
          <dt>{name}</dt>
          <dd className="text-right">{amount}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A labelled input with its error message under it (red, small), linked for screen readers. */
export function Field({ id, label, error, className = "", ...input }) {
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className={`input w-full ${input.readOnly ? "bg-base-200" : ""} ${error ? "input-error" : ""} ${className}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error && (
        <p id={errorId} className="text-error text-sm">
          {error}
        </p>
      )}
    </div>
  );
}

export function Spinner() {
  return <span className="loading loading-spinner loading-sm" role="status" aria-label="Loading" />;
}

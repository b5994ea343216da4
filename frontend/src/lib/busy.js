// Run an API action from a button: busy while it runs, failures shown as an error toast.
import { useCallback, useState } from "react";
import { notify } from "./toasts.jsx";

/** [busy, run]: run(...args) awaits action(...args); an ApiError's message becomes a toast. */
export function useBusy(action) {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (...args) => {
      setBusy(true);
      try {
        return await action(...args);
      } catch (error) {
        notify(error.message, "error");
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return [busy, run];
}

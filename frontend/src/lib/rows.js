// The rows of an island's table: first from the page's props, then changed by API answers.
import { useCallback, useState } from "react";

/** [rows, remove(id), replace(row)]; rows are API objects keyed by `_id`. */
export function useRows(initial) {
  const [rows, setRows] = useState(initial);
  const remove = useCallback((id) => setRows((all) => all.filter((row) => row._id !== id)), []);
  const replace = useCallback(
    (changed) => setRows((all) => all.map((row) => (row._id === changed._id ? changed : row))),
    [],
  );
  return [rows, remove, replace];
}

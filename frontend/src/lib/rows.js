// The rows of an island's table: first from the page's props, then changed by API answers.
import { useCallback, useState } from "react";

/** The rows without the one whose `_id` is `id`. */
export function withoutRow(rows, id) {
  return rows.filter((row) => row._id !== id);
}

/** The rows with the one of the same `_id` replaced by `changed` (the order is kept). */
export function withRow(rows, changed) {
  return rows.map((row) => (row._id === changed._id ? changed : row));
}

/** [rows, remove(id), replace(row)]; rows are API objects keyed by `_id`. */
export function useRows(initial) {
  const [rows, setRows] = useState(initial);
  const remove = useCallback((id) => setRows((all) => withoutRow(all, id)), []);
  const replace = useCallback((changed) => setRows((all) => withRow(all, changed)), []);
  return [rows, remove, replace];
}

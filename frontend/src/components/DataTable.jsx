import { useLayoutEffect, useRef } from "react";
import { labelCells } from "../lib/table.js";

/**
 * A table whose rows become stacked cards below 640 px (each cell labelled by its column
 * heading, `.stacked-table` in app.css), so every row action stays on screen on a phone;
 * `caption` is read by screen readers.
 */
export function DataTable({ caption, columns, children }) {
  const table = useRef(null);
  // Label the cells after every render: rows come and go (deleted, approved, paid).
  useLayoutEffect(() => {
    labelCells(table.current, columns);
  });
  return (
    <div className="sm:overflow-x-auto rounded-box border border-base-300 bg-base-100">
      <table ref={table} className="table table-zebra stacked-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

import { useLayoutEffect, useRef } from "react";
import { labelCells } from "../lib/table.js";

/**
 * A table whose rows become stacked cards when its frame is narrow (each cell labelled by its
 * column heading, `.stacked-table` in app.css), so every row action stays on screen on a phone
 * and beside the dashboard's sidebar; `wide` for a table of many columns (cards below 60rem
 * rather than 40rem, and narrower cell padding: its text cells must wrap to fit); `caption`
 * is read by screen readers.
 */
export function DataTable({ caption, columns, wide = false, children }) {
  const table = useRef(null);
  // Label the cells after every render: rows come and go (deleted, approved, paid).
  useLayoutEffect(() => {
    labelCells(table.current, columns);
  });
  return (
    <div className={wide ? "table-frame table-wide" : "table-frame"}>
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

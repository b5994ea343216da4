// Stacked tables on small screens: each body cell carries its column's heading.

/** Set `data-label` on every cell of the table's body rows from `columns`, by position. */
export function labelCells(table, columns) {
  if (!table) return;
  for (const row of table.querySelectorAll("tbody tr")) {
    Array.from(row.children).forEach((cell, index) => {
      cell.setAttribute("data-label", columns[index] ?? "");
    });
  }
}

import { describe, expect, it } from "vitest";
import { labelCells } from "./table.js";

/** The smallest stand-in for a table element: rows of cells with attributes. */
function fakeTable(rows) {
  const cells = rows.map((row) =>
    row.map(() => {
      const attributes = {};
      return { attributes, setAttribute: (name, value) => (attributes[name] = value) };
    }),
  );
  return {
    cells,
    querySelectorAll: () => cells.map((children) => ({ children })),
  };
}

describe("labelCells", () => {
  it("labels each cell with its column heading", () => {
    const table = fakeTable([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    labelCells(table, ["No.", "Parts Name", "Action"]);
    expect(table.cells[1].map((cell) => cell.attributes["data-label"])).toEqual([
      "No.",
      "Parts Name",
      "Action",
    ]);
  });

  it("leaves cells beyond the headings unlabelled, and a missing table alone", () => {
    const table = fakeTable([[1, 2]]);
    labelCells(table, ["No."]);
    expect(table.cells[0][1].attributes["data-label"]).toBe("");
    expect(() => labelCells(null, ["No."])).not.toThrow();
  });
});

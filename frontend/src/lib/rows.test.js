import { describe, expect, it } from "vitest";
import { withoutRow, withRow } from "./rows.js";

const rows = [
  { _id: "a", quantity: 1 },
  { _id: "b", quantity: 2 },
  { _id: "c", quantity: 3 },
];

describe("withoutRow", () => {
  it("drops the row with that id and keeps the others in order", () => {
    expect(withoutRow(rows, "b")).toEqual([rows[0], rows[2]]);
  });

  it("changes nothing for an unknown id", () => {
    expect(withoutRow(rows, "zz")).toEqual(rows);
  });

  it("leaves the given array alone", () => {
    withoutRow(rows, "a");
    expect(rows).toHaveLength(3);
  });
});

describe("withRow", () => {
  it("replaces the row with the same id in its place", () => {
    const changed = { _id: "b", quantity: 2, state: "shipped" };
    expect(withRow(rows, changed)).toEqual([rows[0], changed, rows[2]]);
  });

  it("adds nothing when no row has that id", () => {
    expect(withRow(rows, { _id: "zz" })).toEqual(rows);
  });

  it("leaves the given array alone", () => {
    withRow(rows, { _id: "a", quantity: 9 });
    expect(rows[0].quantity).toBe(1);
  });
});

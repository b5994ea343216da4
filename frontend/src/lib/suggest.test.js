import { describe, expect, it } from "vitest";
import { countSaid, optionsOf } from "./suggest.js";

describe("optionsOf", () => {
  it("lists the parts, then the categories, then the bikes, each with its page", () => {
    const answer = {
      parts: [
        { _id: 1, name: "Brake disc", partNumber: "12311-MT4-000", price: 89.9, url: "/parts/1" },
      ],
      categories: [{ slug: "brakes", name: "Brakes", url: "/allparts?category=brakes" }],
      bikes: [{ _id: 7, name: "2019 Yamaha MT-07" }],
    };
    expect(optionsOf(answer)).toEqual([
      ["Brake disc", "12311-MT4-000 · $89.90", "/parts/1"],
      ["Brakes", "Category", "/allparts?category=brakes"],
      ["2019 Yamaha MT-07", "Bike", "/allparts?fits=7"],
    ]);
  });

  it("leaves out an empty part number", () => {
    const answer = {
      parts: [{ name: "Lube", partNumber: "", price: 1249, url: "/parts/2" }],
      categories: [],
      bikes: [],
    };
    expect(optionsOf(answer)[0][1]).toBe("$1,249.00");
  });
});

describe("countSaid", () => {
  it("says how many suggestions there are", () => {
    expect(countSaid(0)).toBe("No suggestions");
    expect(countSaid(1)).toBe("1 suggestion");
    expect(countSaid(5)).toBe("5 suggestions");
  });
});

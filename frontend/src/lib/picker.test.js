import { describe, expect, it } from "vitest";
import { modelsOf, nextStep, yearsOf } from "./picker.js";

const vehicles = [
  { _id: 3, make: "Yamaha", model: "MT-07", year: 2019 },
  { _id: 1, make: "Yamaha", model: "MT-07", year: 2014 },
  { _id: 7, make: "Yamaha", model: "MT-09", year: 2021 },
  { _id: 5, make: "Yamaha", model: "Tracer 9", year: 2021 },
];

describe("the bike picker", () => {
  it("lists each model once, by name", () => {
    expect(modelsOf(vehicles)).toEqual(["MT-07", "MT-09", "Tracer 9"]);
  });

  it("lists a model's years newest first with their vehicle", () => {
    expect(yearsOf(vehicles, "MT-07")).toEqual([
      { value: "2019", label: "2019", id: 3 },
      { value: "2014", label: "2014", id: 1 },
    ]);
  });

  it("says what to choose next", () => {
    expect(nextStep({ make: "", model: "", year: "" })).toBe("Choose a make");
    expect(nextStep({ make: "Yamaha", model: "", year: "" })).toBe("Choose a model");
    expect(nextStep({ make: "Yamaha", model: "MT-07", year: "" })).toBe("Choose a year");
    expect(nextStep({ make: "Yamaha", model: "MT-07", year: "2019" })).toBe("");
  });
});

import { describe, expect, it } from "vitest";
import { bars, scaleMax, shortDate, sumOf } from "./charts.js";

describe("scaleMax", () => {
  it("is the largest value", () => {
    expect(scaleMax([3, 12.5, 7])).toBe(12.5);
  });
  it("is 1 for an empty or all-zero chart", () => {
    expect(scaleMax([])).toBe(1);
    expect(scaleMax([0, 0])).toBe(1);
  });
});

describe("bars", () => {
  it("scales heights to the largest value and lays bars side by side", () => {
    const [low, high] = bars([5, 10], { width: 100, height: 50, gap: 0 });
    expect(high).toEqual({ x: 0 + 50, y: 0, width: 50, height: 50 });
    expect(low).toEqual({ x: 0, y: 25, width: 50, height: 25 });
  });
  it("draws a zero as a bar of no height on the baseline", () => {
    const [zero] = bars([0, 4], { width: 20, height: 10 });
    expect(zero.height).toBe(0);
    expect(zero.y).toBe(10);
  });
});

describe("shortDate", () => {
  it("writes the day and the month", () => {
    expect(shortDate("2026-11-02")).toBe("2 Nov");
  });
});

describe("sumOf", () => {
  it("adds money without floating-point dust", () => {
    expect(sumOf([{ revenue: 0.1 }, { revenue: 0.2 }], "revenue")).toBe(0.3);
  });
});

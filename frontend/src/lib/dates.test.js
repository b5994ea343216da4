import { describe, expect, it } from "vitest";
import { dateTime } from "./dates.js";

describe("dateTime", () => {
  it("shows an ISO 8601 moment as a date and time", () => {
    expect(dateTime("2026-11-22T18:09:00Z", "UTC")).toMatch(/^Nov 22, 2026, 6:09\sPM$/);
  });

  it("follows the time zone", () => {
    expect(dateTime("2026-11-22T23:30:00Z", "Asia/Tokyo")).toMatch(/^Nov 23, 2026/);
  });

  it("is empty for what is not a date", () => {
    expect(dateTime(undefined)).toBe("");
    expect(dateTime("not a date")).toBe("");
  });
});

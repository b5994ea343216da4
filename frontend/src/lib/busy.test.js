import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONFIRM, runAction } from "./busy.js";

let confirm;

beforeEach(() => {
  confirm = vi.fn();
  vi.stubGlobal("window", { confirm });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function recorder() {
  const seen = [];
  return {
    seen,
    setBusy: (busy) => seen.push(busy ? "busy" : "idle"),
    onFailure: (error) => seen.push(`failed: ${error.message}`),
  };
}

describe("runAction", () => {
  it("is busy while the action runs, then idle", async () => {
    const { seen, ...hooks } = recorder();
    await runAction(async () => seen.push("running"), hooks);
    expect(seen).toEqual(["busy", "running", "idle"]);
    expect(confirm).not.toHaveBeenCalled();
  });

  it("hands a failure on and is idle again", async () => {
    const { seen, ...hooks } = recorder();
    await runAction(async () => {
      throw new Error("This order is paid.");
    }, hooks);
    expect(seen).toEqual(["busy", "failed: This order is paid.", "idle"]);
  });

  it('asks "Are you sure?" first and does nothing when it is declined', async () => {
    const { seen, ...hooks } = recorder();
    const action = vi.fn();
    confirm.mockReturnValue(false);
    await runAction(action, { ...hooks, confirm: true });
    expect(CONFIRM).toBe("Are you sure?");
    expect(confirm).toHaveBeenCalledExactlyOnceWith("Are you sure?");
    expect(action).not.toHaveBeenCalled();
    expect(seen).toEqual([]);
  });

  it("runs the action once the question is answered yes", async () => {
    const { seen, ...hooks } = recorder();
    confirm.mockReturnValue(true);
    await runAction(async () => seen.push("running"), { ...hooks, confirm: true });
    expect(confirm).toHaveBeenCalledExactlyOnceWith("Are you sure?");
    expect(seen).toEqual(["busy", "running", "idle"]);
  });
});

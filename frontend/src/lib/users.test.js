import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "./api.js";
import { notify } from "./toasts.jsx";
import {
  ADMIN_REMOVED,
  MADE_ADMIN,
  MAKE_ADMIN_REFUSED,
  makeAdmin,
  removeAdmin,
  removeUser,
  USER_REMOVED,
} from "./users.js";

vi.mock("./api.js", () => ({ api: vi.fn() }));
vi.mock("./toasts.jsx", () => ({ notify: vi.fn() }));

const user = { _id: 7, email: "ada+bike@example.com", role: "user" };

afterEach(() => {
  vi.clearAllMocks();
});

describe("makeAdmin", () => {
  it("PUTs the escaped e-mail and says so when something changed", async () => {
    api.mockResolvedValueOnce({ modifiedCount: 1 });
    await expect(makeAdmin(user)).resolves.toEqual({ ...user, role: "admin" });
    expect(api).toHaveBeenCalledExactlyOnceWith("/api/user/admin/ada%2Bbike%40example.com", {
      method: "PUT",
    });
    expect(notify).toHaveBeenCalledExactlyOnceWith(MADE_ADMIN);
  });

  it("shows the spec's refusal on a 403", async () => {
    api.mockRejectedValueOnce(Object.assign(new Error("no"), { status: 403 }));
    await expect(makeAdmin(user)).resolves.toBeNull();
    expect(notify).toHaveBeenCalledExactlyOnceWith(MAKE_ADMIN_REFUSED, "error");
  });
});

describe("removeAdmin", () => {
  it("DELETEs the role and resolves to the user as a plain user", async () => {
    api.mockResolvedValueOnce({ modifiedCount: 1 });
    const admin = { ...user, role: "admin" };
    await expect(removeAdmin(admin)).resolves.toEqual({ ...user, role: "user" });
    expect(api).toHaveBeenCalledExactlyOnceWith("/api/user/admin/ada%2Bbike%40example.com", {
      method: "DELETE",
    });
    expect(notify).toHaveBeenCalledExactlyOnceWith(ADMIN_REMOVED);
  });

  it("lets a refusal through without the success toast", async () => {
    api.mockRejectedValueOnce(new Error("You cannot do this to your own account."));
    await expect(removeAdmin(user)).rejects.toThrow("own account");
    expect(notify).not.toHaveBeenCalled();
  });
});

describe("removeUser", () => {
  it("removes the account and says so", async () => {
    api.mockResolvedValueOnce({ deletedCount: 1 });
    await expect(removeUser(user)).resolves.toBeUndefined();
    expect(api).toHaveBeenCalledExactlyOnceWith("/api/users/ada%2Bbike%40example.com", {
      method: "DELETE",
    });
    expect(notify).toHaveBeenCalledExactlyOnceWith(USER_REMOVED);
  });
});

// All Users calls (docs/api.md): make or unmake an admin, remove an account (its button asks
// "Are you sure?" first: AsyncButton's `confirm`).
import { api } from "./api.js";
import { notify } from "./toasts.jsx";

export const MADE_ADMIN = "successfully made an admin";
export const MAKE_ADMIN_REFUSED = "Failed to make an admin";
export const ADMIN_REMOVED = "admin role removed";
export const USER_REMOVED = "user removed";

function userPath(prefix, user) {
  return `${prefix}/${encodeURIComponent(user.email)}`;
}

/** PUT /api/user/admin/{email}; resolves to the user as an admin, or null when refused. */
export async function makeAdmin(user) {
  try {
    const { modifiedCount } = await api(userPath("/api/user/admin", user), { method: "PUT" });
    if (modifiedCount > 0) notify(MADE_ADMIN);
    return { ...user, role: "admin" };
  } catch (error) {
    if (error.status !== 403) throw error;
    notify(MAKE_ADMIN_REFUSED, "error");
    return null;
  }
}

/** DELETE /api/user/admin/{email}; resolves to the user without the admin role. */
export async function removeAdmin(user) {
  await api(userPath("/api/user/admin", user), { method: "DELETE" });
  notify(ADMIN_REMOVED);
  return { ...user, role: "user" };
}

/** DELETE /api/users/{email}. */
export async function removeUser(user) {
  await api(userPath("/api/users", user), { method: "DELETE" });
  notify(USER_REMOVED);
}

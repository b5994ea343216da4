import { useCallback } from "react";
import { api } from "../lib/api.js";
import { useBusy } from "../lib/busy.js";
import { notify } from "../lib/toasts.jsx";
import { ActionButton } from "./ActionButton.jsx";

export const MADE_ADMIN = "successfully made an admin";
export const MAKE_ADMIN_REFUSED = "Failed to make an admin";
export const REMOVE_USER_INFO = "Users are removed by staff in the Django admin.";

/** PUT /api/user/admin/{email}; resolves to the user as an admin, or null when refused. */
async function makeAdmin(user) {
  try {
    const { modifiedCount } = await api(`/api/user/admin/${encodeURIComponent(user.email)}`, {
      method: "PUT",
    });
    if (modifiedCount > 0) notify(MADE_ADMIN);
    return { ...user, role: "admin" };
  } catch (error) {
    if (error.status !== 403) throw error;
    notify(MAKE_ADMIN_REFUSED, "error");
    return null;
  }
}

function MakeAdminButton({ user, onChanged }) {
  const action = useCallback(async () => {
    const changed = await makeAdmin(user);
    if (changed) onChanged(changed);
  }, [user, onChanged]);
  const [busy, run] = useBusy(action);
  return (
    <ActionButton
      busy={busy}
      className="btn-sm btn-primary"
      onClick={run}
      aria-label={`Make Admin: ${user.email}`}
    >
      Make Admin
    </ActionButton>
  );
}

// The spec's Remove User button has no behaviour: it only says where users are removed.
function showRemoveInfo() {
  notify(REMOVE_USER_INFO, "info");
}

/** One row of All Users: "Make Admin" for non-admins, a harmless "Remove User". */
export function UserRow({ number, user, onChanged }) {
  return (
    <tr>
      <th scope="row">{number}</th>
      <td className="whitespace-nowrap">{user.email}</td>
      <td>
        {user.role === "admin" ? (
          <span className="badge badge-neutral">Admin</span>
        ) : (
          <MakeAdminButton user={user} onChanged={onChanged} />
        )}
      </td>
      <td>
        <button
          type="button"
          className="btn btn-sm btn-outline whitespace-nowrap"
          onClick={showRemoveInfo}
          aria-label={`Remove User: ${user.email}`}
        >
          Remove User
        </button>
      </td>
    </tr>
  );
}

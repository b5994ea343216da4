import { useCallback } from "react";
import { useBusy } from "../lib/busy.js";
import { makeAdmin, removeAdmin, removeUser } from "../lib/users.js";
import { ActionButton } from "./ActionButton.jsx";

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

function RemoveAdminButton({ user, onChanged }) {
  const action = useCallback(async () => {
    onChanged(await removeAdmin(user));
  }, [user, onChanged]);
  const [busy, run] = useBusy(action);
  return (
    <ActionButton
      busy={busy}
      className="btn-sm btn-outline"
      onClick={run}
      aria-label={`Remove admin: ${user.email}`}
    >
      Remove admin
    </ActionButton>
  );
}

function RemoveUserButton({ user, isSelf, onRemoved }) {
  const action = useCallback(async () => {
    if (await removeUser(user)) onRemoved(user._id);
  }, [user, onRemoved]);
  const [busy, run] = useBusy(action);
  return (
    <ActionButton
      busy={busy}
      disabled={isSelf}
      className="btn-sm btn-error"
      onClick={run}
      title={isSelf ? "You cannot remove your own account" : undefined}
      aria-label={`Remove User: ${user.email}`}
    >
      Remove User
    </ActionButton>
  );
}

/** One row of All Users: make or unmake an admin, remove the account (never one's own). */
export function UserRow({ number, user, isSelf, onChanged, onRemoved }) {
  return (
    <tr>
      <th scope="row">{number}</th>
      <td>
        <span className="block min-w-32 wrap-anywhere">{user.email}</span>
      </td>
      <td>
        {user.role === "admin" ? (
          <div className="flex flex-wrap items-center gap-2">
            <span className="badge badge-neutral">Admin</span>
            {!isSelf && <RemoveAdminButton user={user} onChanged={onChanged} />}
          </div>
        ) : (
          <MakeAdminButton user={user} onChanged={onChanged} />
        )}
      </td>
      <td>
        <RemoveUserButton user={user} isSelf={isSelf} onRemoved={onRemoved} />
      </td>
    </tr>
  );
}

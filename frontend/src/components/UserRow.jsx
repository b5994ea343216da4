import { toastFailure } from "../lib/toasts.jsx";
import { makeAdmin, removeAdmin, removeUser } from "../lib/users.js";
import { AsyncButton } from "./AsyncButton.jsx";

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
            {!isSelf && (
              <AsyncButton
                className="btn-sm btn-outline"
                onClick={async () => onChanged(await removeAdmin(user))}
                onFailure={toastFailure}
                aria-label={`Remove admin: ${user.email}`}
              >
                Remove admin
              </AsyncButton>
            )}
          </div>
        ) : (
          <AsyncButton
            className="btn-sm btn-primary"
            onClick={async () => {
              const changed = await makeAdmin(user);
              if (changed) onChanged(changed);
            }}
            onFailure={toastFailure}
            aria-label={`Make Admin: ${user.email}`}
          >
            Make Admin
          </AsyncButton>
        )}
      </td>
      <td>
        <AsyncButton
          disabled={isSelf}
          className="btn-sm btn-error"
          onClick={async () => {
            await removeUser(user);
            onRemoved(user._id);
          }}
          confirm
          onFailure={toastFailure}
          title={isSelf ? "You cannot remove your own account" : undefined}
          aria-label={`Remove User: ${user.email}`}
        >
          Remove User
        </AsyncButton>
      </td>
    </tr>
  );
}

// All Users (admin): make or unmake an admin, remove an account after "Are you sure?".
import { DataTable } from "../components/DataTable.jsx";
import { UserRow } from "../components/UserRow.jsx";
import { mountIslands } from "../lib/mount.jsx";
import { useRows } from "../lib/rows.js";
import { signedInEmail } from "../lib/session.js";

const COLUMNS = ["No.", "Email", "Create Admin", "Action"];

function AllUsers({ users = [] }) {
  const [rows, remove, replace] = useRows(users);
  const me = signedInEmail();
  return (
    <DataTable caption="All users" columns={COLUMNS}>
      {rows.map((user, index) => (
        <UserRow
          key={user._id}
          number={index + 1}
          user={user}
          isSelf={user.email === me}
          onChanged={replace}
          onRemoved={remove}
        />
      ))}
    </DataTable>
  );
}

mountIslands({ "all-users": AllUsers });

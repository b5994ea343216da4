// All Users (admin): make a user an admin; "Remove User" only says where users are removed.
import { DataTable } from "../components/DataTable.jsx";
import { UserRow } from "../components/UserRow.jsx";
import { mountIslands } from "../lib/mount.jsx";
import { useRows } from "../lib/rows.js";

const COLUMNS = ["No.", "Email", "Create Admin", "Action"];

function AllUsers({ users = [] }) {
  const [rows, , replace] = useRows(users);
  return (
    <DataTable caption="All users" columns={COLUMNS}>
      {rows.map((user, index) => (
        <UserRow key={user._id} number={index + 1} user={user} onChanged={replace} />
      ))}
    </DataTable>
  );
}

mountIslands({ "all-users": AllUsers });

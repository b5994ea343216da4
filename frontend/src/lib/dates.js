// Dates as the tables show them (Manage Orders), apart from format.js so that islands without
// dates do not carry this code.

/** An ISO 8601 moment (an order's `createdAt`) as "Nov 22, 2026, 6:09 PM", in the reader's
 * time zone (or `timeZone`); "" for what is not a date. */
export function dateTime(iso, timeZone = undefined) {
  const moment = new Date(iso ?? "");
  if (Number.isNaN(moment.getTime())) return "";
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  }).format(moment);
}

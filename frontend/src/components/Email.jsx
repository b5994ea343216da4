/** An e-mail address that may wrap after its "@" (and, with `wrap-anywhere` around it,
 * anywhere else when even one half is wider than its column), so long addresses never push
 * a table's actions off screen. */
export function Email({ address }) {
  const at = address.indexOf("@");
  if (at < 0) return address;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}

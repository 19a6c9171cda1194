/** A table's header row: its columns, then an unlabelled actions column screen readers still name. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th scope="col">{c}</th>
        ))}
        <th scope="col">
          <span class="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

const headerCellClass =
  'border border-gray-300 bg-gray-100 px-3 py-2 text-left align-bottom font-semibold dark:border-gray-700 dark:bg-gray-800'

/**
 * A wide table scrolls inside a labelled region that the keyboard can reach. With `stackOnPhone`, a
 * phone shows each row as a block of its cells, each led by its `data-label` (app/app.css).
 */
export function ScrollableTable({
  label,
  minWidthClass = 'min-w-[40rem]',
  stackOnPhone = false,
  children,
}: {
  label: string
  minWidthClass?: string
  stackOnPhone?: boolean
  children: React.ReactNode
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="mt-4 overflow-x-auto">
      <table className={`w-full ${minWidthClass} border-collapse text-sm${stackOnPhone ? ' stacked-rows' : ''}`}>
        {children}
      </table>
    </div>
  )
}

/** The header row of a table: one column header per name. */
export function ColumnHeaders({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className={headerCellClass}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  )
}

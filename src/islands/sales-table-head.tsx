/** The header row of a recent-sales table (agent profile, sample report): one column set, RESO order. */
export function SalesTableHead({ className, cellClassName }: { className: string; cellClassName: string }) {
  const columns: [label: string, numeric: boolean][] = [
    ['Address', false],
    ['Close date', false],
    ['List price', true],
    ['Sale price', true],
    ['Sale-to-list', true],
    ['Days on market', true],
  ]
  return (
    <thead className={className}>
      <tr>
        {columns.map(([label, numeric]) => (
          <th key={label} scope="col" className={`${cellClassName} ${numeric ? 'text-right' : ''}`}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  )
}

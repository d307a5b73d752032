// One of the research dashboard's tables: a section named by its heading, an optional note under
// it, and the administrators' table (components/DataTable.tsx) in the dashboard's style.
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from '../../components/DataTable';

export function ScienceTable<Row>({
  id,
  title,
  note,
  ...table
}: { id: string; title: string; note?: ReactNode } & Omit<DataTableProps<Row>, 'className'>) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {note && <p className="science-note">{note}</p>}
      <DataTable className="science-table" {...table} />
    </section>
  );
}

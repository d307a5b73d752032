// One of the research dashboard's tables: a section named by its heading, an optional note under
// it, and the administrators' table (components/DataTable.tsx) in the dashboard's style; with no
// row, 'No data yet.' in its place.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableProps } from '../../components/DataTable';

export function ScienceTable<Row>({
  id,
  title,
  note,
  ...table
}: { id: string; title: string; note?: ReactNode } & Omit<DataTableProps<Row>, 'className'>) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {note && <p className="science-note">{note}</p>}
      <DataTable className="science-table" empty={t('science.none')} {...table} />
    </section>
  );
}

// The administrators' tables (the science dashboard's): a header row of column names, a row per
// item with its row header (th scope="row", which a screen reader announces with each cell),
// figures right-aligned, and in a scrolling wrapper on a narrow screen. A table with no rows says
// `empty` instead, when given.
import type { HTMLAttributes, ReactNode } from 'react';

type CellProps = HTMLAttributes<HTMLTableCellElement> & { 'data-testid'?: string };

export interface DataColumn<Row> {
  /** The column's name, in the header row. */
  header: string;
  /** Figures: right-aligned (the `number` class), in the header as in the cells. */
  numeric?: boolean;
  /** The row's header cell. */
  rowHeader?: boolean;
  /** Attributes of the column's cell in a row: an id, a language, a test id. */
  cellProps?: (row: Row) => CellProps;
  cell: (row: Row) => ReactNode;
}

export interface DataTableProps<Row> {
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & { 'data-testid'?: string };
  empty?: ReactNode;
  className?: string;
  testId?: string;
}

export function DataTable<Row>({ columns, rows, rowKey, rowProps, empty, className, testId }: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <p>{empty}</p>;
  const numeric = (column: DataColumn<Row>) => (column.numeric ? 'number' : undefined);
  return (
    <div className="admin-table-wrap">
      <table className={className ? `admin-table ${className}` : 'admin-table'} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={numeric(column)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column, index) => {
                const props: CellProps = { className: numeric(column), ...column.cellProps?.(row) };
                return column.rowHeader ? (
                  <th key={index} scope="row" {...props}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={index} {...props}>
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { EditIcon, TrashIcon } from '~/components/icons';
import { useStackedTable } from './stacked-table';

export interface MasterRow {
  key: string;
  cells: ReactNode[];
  /** The edit page, and the link that opens the delete dialog (the list's URL with the row's id). */
  editTo: string;
  deleteTo: string;
  /** Named in the buttons' labels for screen readers. */
  name: string;
}

/** A master list's table (001 §2): the columns, then edit and delete per row. */
export function MasterTable({ label, columns, rows }: { label: string; columns: readonly string[]; rows: readonly MasterRow[] }) {
  const stack = useStackedTable();
  const cell = 'px-4 py-2.5 text-left';
  return (
    <div className="overflow-x-auto">
      <table ref={stack} className="table-stack w-full text-sm" aria-label={label}>
        <thead className="bg-slate-50 text-xs font-semibold text-slate-500">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={cell}>{column}</th>
            ))}
            <th scope="col" className={`${cell} w-20 text-center`}>編集</th>
            <th scope="col" className={`${cell} w-20 text-center`}>削除</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.key} className="hover:bg-slate-50">
              {row.cells.map((content, index) => (
                <td key={columns[index]} className={`${cell} text-slate-700`}>{content}</td>
              ))}
              <td className={`${cell} text-center`}>
                <Link to={row.editTo} className="inline-flex rounded-md p-1.5 text-slate-500 hover:bg-slate-200 hover:text-brand-700" aria-label={`${row.name}を編集`}>
                  <EditIcon className="h-5 w-5" />
                </Link>
              </td>
              <td className={`${cell} text-center`}>
                <Link to={row.deleteTo} className="inline-flex rounded-md p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-600" aria-label={`${row.name}を削除`} preventScrollReset>
                  <TrashIcon className="h-5 w-5" />
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { Fragment, type ReactNode } from 'react';

/**
 * A table body's rows under group headings: a heading row spans the table each time the group
 * changes (the parameter tables of the Workbench and the Station: "Safety function", "ISM radio").
 */
export function GroupedRows<R extends { key: string; group: string }>({
  rows,
  columns,
  row,
}: {
  rows: readonly R[];
  columns: number;
  row: (item: R) => ReactNode;
}) {
  return (
    <>
      {rows.map((item, index) => (
        <Fragment key={item.key}>
          {index === 0 || rows[index - 1]!.group !== item.group ? (
            <tr className="param-table__group">
              <th scope="colgroup" colSpan={columns}>
                {item.group}
              </th>
            </tr>
          ) : null}
          {row(item)}
        </Fragment>
      ))}
    </>
  );
}

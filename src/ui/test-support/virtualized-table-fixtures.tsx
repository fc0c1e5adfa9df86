import { cleanup } from '@testing-library/react';
import type { DataTableColumn } from '../components/data-table';

/** Rows, columns and a measured viewport for the VirtualizedDataTable tests (src/ui/components/virtualized-table*.test.tsx). */

export interface User {
  id: number;
  name: string;
  email: string;
}
/** 10,000 users: the long list the grid is for. */
export const users: User[] = Array.from({ length: 10_000 }, (_, i) => ({
  id: i + 1,
  name: `Usuário ${i + 1}`,
  email: `user${i + 1}@demo.local`,
}));
export const columns: DataTableColumn<User>[] = [
  { id: 'name', header: 'Nome', cell: (u) => u.name, isRowHeader: true },
  { id: 'email', header: 'Email', cell: (u) => u.email },
];

/** The columns plus a cell with two buttons per row (as the users list's actions). */
export function actionColumns(onPress: (what: string, id: number) => void): DataTableColumn<User>[] {
  return [
    ...columns,
    {
      id: 'actions',
      header: 'Ações',
      cell: (u) => (
        <>
          <button type="button" onClick={() => onPress('edit', u.id)}>
            Editar {u.name}
          </button>
          <button type="button" onKeyDown={(e) => onPress(`key ${e.key}`, u.id)}>
            Mais {u.name}
          </button>
        </>
      ),
    },
  ];
}

/*
 * jsdom has no layout: every element is 0×0, and the grid would fall back to the window's height
 * for its viewport. Define clientWidth/clientHeight on the prototype so it measures 1000×600 px, as
 * in a browser, and mounts only the rows that fit (under a 44 px header) plus its overscan.
 */
export const VIEWPORT = { width: 1000, height: 600 };
/** Registers the viewport (and cleanup after each test) in the calling test file. */
export function withGridViewport(): void {
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => VIEWPORT.width });
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => VIEWPORT.height });
  });
  afterAll(() => {
    // Removing the own properties restores jsdom's Element.prototype getters.
    Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
    Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
  });
  afterEach(cleanup);
}

import { ApiError } from '../../api/api-error';
import { fakeServer, gqlData, operationOf } from '../test-support/fake-fetch';
import { userRow } from '../test-support/user-fixtures';
import { usersPageOf } from '../test-support/users-page';
import { loadUserRow } from './users-actors';

// The user form's reload of one user (docs/lists.md, Filters and export): `usersPage` narrowed to the id,
// one row asked for, never the whole list.
describe('loadUserRow', () => {
  const rows = [userRow(1), userRow(2), userRow(3)];
  const server = () =>
    fakeServer((request) => {
      const op = operationOf(request);
      if (op?.name === 'usersPage') return gqlData(usersPageOf(rows, op.variables));
      throw new Error(`unexpected ${op?.name ?? request.path}`);
    });

  it('reads the one user through usersPage filtered by its id', async () => {
    const fake = server();
    await expect(loadUserRow(fake.execute, 2)).resolves.toEqual(userRow(2));
    expect(fake.seen.map(operationOf)).toEqual([
      expect.objectContaining({ name: 'usersPage', variables: { filter: { id: 2 }, limit: 1 } }),
    ]);
  });

  it('fails as not found when the page is empty (deleted, or of another tenant)', async () => {
    const error = await loadUserRow(server().execute, 9).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });
});

// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Grid, Inline, Stack } from './layout';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('layout helpers', () => {
  it('Stack and Inline render the requested element with distinct gap classes', () => {
    renderUi(
      <>
        <Stack as="ul" gap="lg">
          <li>a</li>
        </Stack>
        <Inline gap="xs" justify="between">
          <span>b</span>
        </Inline>
      </>,
    );
    const list = screen.getByRole('list');
    const row = screen.getByText('b').parentElement as HTMLElement;
    expect(list.tagName).toBe('UL');
    expect(list.className).not.toBe(row.className);
  });

  it('Grid auto-fits columns that can shrink to the container (no overflow at 390 px)', () => {
    renderUi(
      <Grid minColumnWidth="16rem" as="section">
        <div>kpi</div>
      </Grid>,
    );
    const grid = screen.getByText('kpi').parentElement as HTMLElement;
    expect(grid.tagName).toBe('SECTION');
    expect(grid.style.gridTemplateColumns).toBe('repeat(auto-fit, minmax(min(100%, 16rem), 1fr))');
  });
});

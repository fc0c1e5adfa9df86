// @vitest-environment jsdom
import { cleanup } from '@testing-library/react';
import { Skeleton } from './skeleton';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Skeleton', () => {
  it('is hidden from assistive technology and sized as asked', () => {
    const { container } = renderUi(<Skeleton width="8rem" height="2rem" />);
    const el = container.querySelector('[aria-hidden="true"]') as HTMLElement;
    expect(el.style.width).toBe('8rem');
    expect(el.style.height).toBe('2rem');
  });

  it('renders several lines with a shorter last one', () => {
    const { container } = renderUi(<Skeleton lines={3} />);
    const lines = container.querySelectorAll('[aria-hidden="true"] > span');
    expect(lines).toHaveLength(3);
    expect((lines[2] as HTMLElement).style.width).toBe('60%');
  });
});

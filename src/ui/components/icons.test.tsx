// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { CheckIcon, CloseIcon } from './icons';

afterEach(cleanup);

describe('icons', () => {
  it('are hidden from assistive technology even when a caller passes aria-hidden=false', () => {
    const { container } = render(
      <>
        <CheckIcon aria-hidden="false" />
        <CloseIcon size={24} />
      </>,
    );
    const svgs = container.querySelectorAll('svg');
    expect(svgs).toHaveLength(2);
    for (const svg of svgs) expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svgs[1]).toHaveAttribute('width', '24');
  });
});

import type { SVGProps } from 'react';
import { cx } from './class-names';
import { icon } from './icon.css';

/** Props of every icon: decorative by default, so screen readers read the control's label instead. */
export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };

/**
 * A small built-in icon set (stroke paths on a 24-unit grid) so the primitives need no icon
 * library. Icons are always `aria-hidden`: the control that holds one carries the accessible name.
 */
export function makeIcon(paths: readonly string[]) {
  return function Icon({ size = 16, className, ...props }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        focusable="false"
        {...props}
        className={cx(icon, className)}
        aria-hidden="true"
      >
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  };
}

import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';

const spaceKeys = ['none', 'xxs', 'xs', 'sm', 'md', 'lg', 'xl'] as const;
type SpaceKey = (typeof spaceKeys)[number];
const spaceValue = (key: SpaceKey) => (key === 'none' ? '0' : vars.space[key]);

export const gap = styleVariants(
  Object.fromEntries(spaceKeys.map((key) => [key, { gap: spaceValue(key) }])) as Record<SpaceKey, { gap: string }>,
);

/** `minWidth: 0` everywhere: flex and grid children may shrink, so long content never widens the page. */
export const stack = style({ display: 'flex', flexDirection: 'column', minWidth: 0 });

export const inline = style({ display: 'flex', flexDirection: 'row', flexWrap: 'wrap', minWidth: 0 });

export const noWrap = style({ flexWrap: 'nowrap' });

export const align = styleVariants({
  start: { alignItems: 'flex-start' },
  center: { alignItems: 'center' },
  end: { alignItems: 'flex-end' },
  stretch: { alignItems: 'stretch' },
  baseline: { alignItems: 'baseline' },
});

export const justify = styleVariants({
  start: { justifyContent: 'flex-start' },
  center: { justifyContent: 'center' },
  end: { justifyContent: 'flex-end' },
  between: { justifyContent: 'space-between' },
});

export const grid = style({ display: 'grid', minWidth: 0 });

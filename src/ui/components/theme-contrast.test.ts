import { darkColors, lightColors } from '../theme.css';

type Palette = Record<keyof typeof lightColors, string>;
type Token = keyof Palette;

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not an opaque #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((part) => {
    const c = Number.parseInt(part, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Text drawn on a background by some primitive: WCAG AA 1.4.3 needs 4.5:1. */
const TEXT_PAIRS: ReadonlyArray<[Token, Token[]]> = [
  [
    'text',
    [
      'background',
      'surface',
      'surfaceRaised',
      'surfaceHover',
      'selected',
      'dangerSurface',
      'successSurface',
      'warningSurface',
      'infoSurface',
    ],
  ],
  ['textMuted', ['background', 'surface', 'surfaceRaised', 'surfaceHover', 'selected']],
  ['primary', ['background', 'surface', 'surfaceRaised', 'selected']], // links, checkmarks in options
  ['primaryText', ['primary', 'primaryHover']], // calendar range ends, focused date segment, avatar
  ['primaryFillText', ['primaryFill', 'primaryFillHover']], // primary buttons
  ['dangerText', ['danger', 'dangerHover']], // danger buttons
  ['danger', ['background', 'surface', 'surfaceRaised', 'surfaceHover', 'dangerSurface']], // field errors, danger menu items
  ['success', ['background', 'surface', 'surfaceRaised']], // KPI increase
  ['warning', ['background', 'surface', 'surfaceRaised']],
  ['info', ['background', 'surface', 'surfaceRaised']],
  ['background', ['text']], // tooltips are inverted
];

/** Non-text UI (focus ring, control boundaries, state indicators): WCAG 1.4.11 / 2.4.13 need 3:1. */
const UI_PAIRS: ReadonlyArray<[Token, Token[]]> = [
  ['focus', ['background', 'surface', 'surfaceRaised', 'surfaceHover', 'selected']],
  ['border', ['background', 'surface', 'surfaceRaised']],
  ['primary', ['background', 'surface']], // checked checkbox, switch track, selected tab underline
  ['primaryFill', ['background']], // the primary button's fill on the page
  ['success', ['background', 'surface', 'successSurface']], // status dots, toast and badge borders
  ['warning', ['background', 'surface', 'warningSurface']],
  ['danger', ['background', 'surface', 'dangerSurface']],
  ['info', ['background', 'surface', 'infoSurface', 'surfaceRaised']],
  ['textMuted', ['background', 'surface']], // neutral (offline) dot
];

/** Chroma of a colour: its largest minus its smallest sRGB channel (0 grey … 1 pure hue). */
function chroma(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return Math.max(...channels) - Math.min(...channels);
}

function failures(palette: Palette, pairs: ReadonlyArray<[Token, Token[]]>, minimum: number): string[] {
  const out: string[] = [];
  for (const [fg, backgrounds] of pairs) {
    for (const bg of backgrounds) {
      const ratio = contrast(palette[fg], palette[bg]);
      if (ratio < minimum) out.push(`${fg} on ${bg}: ${ratio.toFixed(2)} < ${minimum}`);
    }
  }
  return out;
}

describe('contrast()', () => {
  it('matches known WCAG ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});

describe.each([
  ['light', lightColors as Palette],
  ['dark', darkColors as Palette],
])('%s theme', (_name, palette) => {
  it('meets WCAG AA 4.5:1 for every text colour on every surface it is drawn on', () => {
    expect(failures(palette, TEXT_PAIRS, 4.5)).toEqual([]);
  });

  it('meets 3:1 for focus indicators, control borders and state indicators', () => {
    expect(failures(palette, UI_PAIRS, 3)).toEqual([]);
  });

  // A pastel fill (the dark theme's `primary`, chroma 0.42) read as a disabled button; a disabled one
  // has no fill at all (button.css.ts), so the enabled fill must be a strong colour.
  it('fills the primary button with a saturated colour (chroma ≥ 0.5), unlike its pastel text colour', () => {
    expect(chroma(palette.primaryFill)).toBeGreaterThanOrEqual(0.5);
    expect(chroma(palette.primaryFillHover)).toBeGreaterThanOrEqual(0.5);
  });
});

describe('palettes', () => {
  it('define the same tokens', () => {
    expect(Object.keys(darkColors).sort()).toEqual(Object.keys(lightColors).sort());
  });
});

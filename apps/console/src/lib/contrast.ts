/*
 * Colour contrast by WCAG 2.1 (relative luminance, ratio (L1 + 0.05) / (L2 + 0.05)): text must reach
 * 4.5:1 against its background (issue #16). Used by every coloured tag (components/ColorTag) and by the
 * theme (readable-theme.ts: the text shade of antd's preset tag colours, checked by its test).
 */

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

export const isHexColor = (c: string | undefined): c is string => typeof c === 'string' && HEX.test(c);

/** Relative luminance of a #rgb / #rrggbb colour. */
export function luminance(hex: string): number {
  const h = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (d) => d + d) : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(h.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Black or white text for a background, whichever contrasts more: one of them always reaches
 * 4.58:1 (the ratios with black and white multiply to 21), so the text of any colour is readable.
 */
export const readableTextOn = (bg: string): '#000000' | '#ffffff' =>
  contrastRatio(bg, '#000000') >= contrastRatio(bg, '#ffffff') ? '#000000' : '#ffffff';

/** antd's preset colours (Tag color="green" …): text `{name}7` on background `{name}1`. */
export const PRESET_COLORS = [
  'red',
  'volcano',
  'orange',
  'gold',
  'yellow',
  'lime',
  'green',
  'cyan',
  'blue',
  'geekblue',
  'purple',
  'magenta',
] as const;

/**
 * Tag component tokens: for each preset colour, the text shade (`{name}7` in antd) becomes the first
 * of shades 7…10 of the theme's palette that reaches 4.5:1 on the tag's background (`{name}1`); in the
 * light theme gold, for one, goes from 2.76:1 to 6.53:1. `palette` is antd's map token of the theme.
 */
export function readablePresetTagTokens(palette: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PRESET_COLORS) {
    const bg = palette[`${name}1`];
    if (!isHexColor(bg as string)) continue;
    for (const shade of [7, 8, 9, 10]) {
      const fg = palette[`${name}${shade}`] as string;
      if (isHexColor(fg) && contrastRatio(fg, bg as string) >= 4.5) {
        out[`${name}7`] = fg;
        break;
      }
    }
  }
  return out;
}

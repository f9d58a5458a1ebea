/* Chart styles the console's home page and the server's PDF report share. No zod here: the home page's first chunk imports it. */

/**
 * How «Без приоритета» is drawn in every chart — the console's home page and the PDF report: the
 * neutral grey that «Низкий» (the 'default' colour) shares, with light diagonal stripes (an ECharts
 * decal; SVG keeps it as a pattern) that tell the two apart without colour (issue #30, item 13). The
 * grey reads at 3:1 on both themes' cards and carries white counts at 4.7:1.
 */
export const NO_PRIORITY_STYLE = {
  color: '#737373',
  decal: {
    symbol: 'rect',
    symbolSize: 1,
    color: 'rgba(255, 255, 255, 0.55)',
    dashArrayX: [1, 0],
    dashArrayY: [2, 4],
    rotation: -Math.PI / 4,
  },
} as const;

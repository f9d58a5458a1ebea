/*
 * The console theme's colours made readable (WCAG 2.1 AA, issue #16; docs/decisions.md «Colours and
 * contrast»): antd's secondary/placeholder greys and the danger red are darkened (lighter in the dark
 * theme) to reach 4.5:1, and the text shade of every preset tag colour is picked by contrast.
 */
import { type ThemeConfig, theme } from 'antd';

/** Token overrides per theme; the ratios are against the page (#f5f5f5 / #000) and the cards (#fff / #141414). */
const READABLE_TOKENS = {
  light: {
    // rgba(0,0,0,.45) = #8c8c8c, 3.36:1 on white → #6b6b6b: 5.33:1 on white, 5.19:1 on #f5f5f5.
    colorTextTertiary: 'rgba(0, 0, 0, 0.58)',
    colorTextDescription: 'rgba(0, 0, 0, 0.58)',
    // rgba(0,0,0,.25) = #bfbfbf, 1.83:1 → the same grey as the secondary text.
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.58)',
    // #ff4d4f: 3.26:1 under white text (danger buttons) → #cf1322: 5.57:1.
    colorError: '#cf1322',
    // A hovered primary button (and link) went lighter, #597ef7: 3.65:1 under white text → a shade
    // between the brand blue and the pressed one (#1d39c4), #2747d6: 7.1:1.
    colorPrimaryHover: '#2747d6',
    colorLinkHover: '#2747d6',
  },
  dark: {
    colorTextTertiary: 'rgba(255, 255, 255, 0.6)',
    colorTextDescription: 'rgba(255, 255, 255, 0.6)',
    colorTextPlaceholder: 'rgba(255, 255, 255, 0.6)',
    // The brand blue #2f54eb is 2.58:1 as link text on #141414 → #85a5ff: 7.5:1.
    colorLink: '#85a5ff',
    // Dangerous buttons' red text: #dc4446 (from #ff4d4f) 4.34:1 on #141414 → a lighter seed.
    colorError: '#ff7875',
    // The hovered primary button lightened to #5273e0: 4.29:1 under white text → #4a6ae0: 4.74:1
    // (still lighter than the button at rest); links lighten on hover as in the tabs.
    colorPrimaryHover: '#4a6ae0',
    colorLinkHover: '#adc6ff',
  },
} as const;

/**
 * The text shade of each preset tag colour that reaches 4.5:1 on its background (contrast.ts
 * `readablePresetTagTokens` over the theme's palette), written down: deriving them ran antd's theme
 * algorithm a second time and 48 contrast ratios on every first load, the sign-in page's too (issue
 * #30). readable-theme.test.ts checks them against the derivation.
 */
export const PRESET_TAG_TEXT = {
  light: {
    red7: '#cf1322',
    volcano7: '#ad2102',
    orange7: '#ad4e00',
    gold7: '#874d00',
    yellow7: '#876800',
    lime7: '#3f6600',
    green7: '#237804',
    cyan7: '#006d75',
    blue7: '#0958d9',
    geekblue7: '#1d39c4',
    purple7: '#531dab',
    magenta7: '#c41d7f',
  },
  dark: {
    red7: '#e84749',
    volcano7: '#e87040',
    orange7: '#e89a3c',
    gold7: '#e8b339',
    yellow7: '#e8d639',
    lime7: '#a9d134',
    green7: '#6abe39',
    cyan7: '#33bcb7',
    blue7: '#3c89e8',
    geekblue7: '#7f9ef3',
    purple7: '#ab7ae0',
    magenta7: '#e0529c',
  },
} as const;

/** The theme config with readable colours for the given algorithm (light or dark). */
export function readableTheme(base: ThemeConfig, dark: boolean): ThemeConfig {
  const algorithm = dark ? theme.darkAlgorithm : theme.defaultAlgorithm;
  const token = { ...base.token, ...READABLE_TOKENS[dark ? 'dark' : 'light'] };
  // Status tags (color="success" / "warning") write in the status colour on its pale background.
  const statusTag = dark ? {} : { colorSuccess: '#237804', colorWarning: '#ad4e00' };
  return {
    ...base,
    token,
    algorithm,
    components: {
      ...base.components,
      // The selected tab writes in the primary colour: in the dark theme the readable link blue.
      ...(dark ? { Tabs: { itemSelectedColor: '#85a5ff', itemHoverColor: '#adc6ff', itemActiveColor: '#adc6ff' } } : {}),
      Tag: { ...base.components?.Tag, ...statusTag, ...PRESET_TAG_TEXT[dark ? 'dark' : 'light'] },
    },
  };
}

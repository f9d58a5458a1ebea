import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { readablePresetTagTokens } from './contrast';
import { PRESET_TAG_TEXT, readableTheme } from './readable-theme';

describe('readableTheme', () => {
  // The tag text shades are written down, not derived when the console starts (a second run of antd's
  // theme algorithm and 48 contrast ratios on every first load, the sign-in page's too: issue #30).
  it.each([false, true])('the written-down tag text shades are the ones the theme derives (dark: %s)', (dark) => {
    const t = readableTheme({ token: { colorPrimary: '#2f54eb' } }, dark);
    const palette = theme.getDesignToken({ token: t.token, algorithm: t.algorithm }) as unknown as Record<string, unknown>;
    expect(PRESET_TAG_TEXT[dark ? 'dark' : 'light']).toEqual(readablePresetTagTokens(palette));
    expect(t.components?.Tag).toMatchObject(readablePresetTagTokens(palette));
  });
});

import { Tag, type TagProps } from 'antd';
import { isHexColor, readableTextOn } from '../lib/contrast';

/**
 * A tag in a colour chosen by users (tags, statuses, priorities): a #rrggbb colour is the solid
 * background and the text is black or white, whichever is readable on it (WCAG 4.5:1, lib/contrast);
 * antd's preset names (green, gold …) keep antd's look, with the theme's readable text shades.
 */
export function ColorTag({ color, style, ...props }: TagProps) {
  if (!isHexColor(color)) return <Tag color={color} style={style} {...props} />;
  return <Tag variant="solid" color={color} style={{ ...style, color: readableTextOn(color) }} {...props} />;
}

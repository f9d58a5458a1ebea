/** Sizes of the signed-in layout that pages need too (a sticky block must clear the sticky header). */
export const SIDER_WIDTH = 256;
export const HEADER_HEIGHT = 64;

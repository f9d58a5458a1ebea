/*
 * pdfmake, set up once for every PDF the API makes (reports, takedown evidence): the bundled Roboto
 * fonts, and no access to anything else — no URLs, and from the disk only the fonts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';

const require = createRequire(import.meta.url);
const FONTS_DIR = path.dirname(require.resolve('pdfmake/fonts/Roboto/Roboto-Regular.ttf'));
pdfmake.setFonts({
  Roboto: {
    normal: path.join(FONTS_DIR, 'Roboto-Regular.ttf'),
    bold: path.join(FONTS_DIR, 'Roboto-Medium.ttf'),
    italics: path.join(FONTS_DIR, 'Roboto-Italic.ttf'),
    bolditalics: path.join(FONTS_DIR, 'Roboto-MediumItalic.ttf'),
  },
});
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((p) => path.resolve(p).startsWith(FONTS_DIR + path.sep));

export { pdfmake };

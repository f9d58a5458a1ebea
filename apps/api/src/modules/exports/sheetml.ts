/*
 * A streaming XLSX (SpreadsheetML) writer over ZipWriter: inline strings (never formulas, no shared
 * strings table to hold in memory), numbers as numbers, a bold frozen header row, a new sheet every
 * `rowsPerSheet` rows. Rows come either as cells (the Node path) or as ready `<row>` XML built by
 * PostgreSQL (the SQL path) — both with sheet-relative row numbers `r`, which readers need.
 */
import { XLSX_ROWS_PER_SHEET } from '@forpost/contract/exports';
import type { Cell } from './cells';
import { type ZipEntry, ZipWriter } from './zip';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

// biome-ignore lint/suspicious/noControlCharactersInRegex: characters XML 1.0 cannot carry
const XML_BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const XML_SPECIAL = /[&<>"]/g;
const XML_ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xmlText = (s: string) => s.replace(XML_BAD, '').replace(XML_SPECIAL, (c) => XML_ESC[c] as string);

/** Column letters: 0 → A, 25 → Z, 26 → AA. */
function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const strCell = (ref: string, v: string, style = '') =>
  `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${xmlText(v)}</t></is></c>`;

/** One row of cells as XML (null cells are left out). */
function rowXml(r: number, cells: readonly Cell[], cols: readonly string[], style = ''): string {
  let s = `<row r="${r}">`;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c === null || c === undefined) continue;
    const ref = `${cols[i]}${r}`;
    s += typeof c === 'number' && Number.isFinite(c) ? `<c r="${ref}"${style}><v>${c}</v></c>` : strCell(ref, String(c), style);
  }
  return `${s}</row>`;
}

const STYLES = `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

export class XlsxStream {
  private readonly zip = new ZipWriter();
  readonly output = this.zip.output;
  private readonly cols: string[];
  private readonly sheetHead: string;
  private sheet: ZipEntry | undefined;
  private sheets = 0;
  /** Data rows in the current sheet. */
  private inSheet = 0;

  constructor(
    header: readonly string[],
    readonly rowsPerSheet = XLSX_ROWS_PER_SHEET,
  ) {
    this.cols = header.map((_, i) => columnName(i));
    const widths = header.map((h) => Math.min(50, Math.max(12, h.length + 4)));
    this.sheetHead =
      `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
      `<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols><sheetData>` +
      rowXml(1, header, this.cols, ' s="1"');
  }

  /** Column letters of the header's columns. */
  get columns(): readonly string[] {
    return this.cols;
  }

  private async nextSheet(): Promise<ZipEntry> {
    await this.closeSheet();
    this.sheets++;
    const s = await this.zip.entry(`xl/worksheets/sheet${this.sheets}.xml`);
    await s.write(this.sheetHead);
    this.sheet = s;
    this.inSheet = 0;
    return s;
  }

  private async closeSheet() {
    if (!this.sheet) return;
    await this.sheet.write('</sheetData></worksheet>');
    await this.sheet.end();
    this.sheet = undefined;
  }

  /** The sheet the next row goes to (opens one when the current is full). */
  private async target(): Promise<ZipEntry> {
    if (!this.sheet || this.inSheet >= this.rowsPerSheet) return this.nextSheet();
    return this.sheet;
  }

  /** A row of cells (numbers stay numbers; everything else is text as given). */
  async write(cells: readonly Cell[]): Promise<void> {
    const s = await this.target();
    this.inSheet++;
    await s.write(rowXml(this.inSheet + 1, cells, this.cols));
  }

  /** Rows of cells at once (one write per sheet). */
  async writeMany(rows: readonly (readonly Cell[])[]): Promise<void> {
    let i = 0;
    while (i < rows.length) {
      const s = await this.target();
      const n = Math.min(rows.length - i, this.rowsPerSheet - this.inSheet);
      let xml = '';
      for (let k = 0; k < n; k++) xml += rowXml(this.inSheet + k + 2, rows[i + k] as Cell[], this.cols);
      this.inSheet += n;
      i += n;
      await s.write(xml);
    }
  }

  /** Ready `<row>` XML of `count` rows that all belong to the current sheet (XlsxRowBuilder splits them so). */
  async writeXml(xml: Buffer, count: number): Promise<void> {
    const s = await this.target();
    this.inSheet += count;
    await s.write(xml);
  }

  async end(): Promise<void> {
    if (!this.sheet && !this.sheets) await this.nextSheet();
    await this.closeSheet();
    const names = Array.from({ length: this.sheets }, (_, i) => (i === 0 ? 'Данные' : `Данные ${i + 1}`));
    const z = this.zip;
    await z.file(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${names
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('')}</Types>`,
    );
    await z.file(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    await z.file(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><bookViews><workbookView/></bookViews><sheets>${names
        .map((n, i) => `<sheet name="${xmlText(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join('')}</sheets></workbook>`,
    );
    await z.file(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">${names
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join(
          '',
        )}<Relationship Id="rId${names.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    );
    await z.file('xl/styles.xml', STYLES);
    await z.finish();
  }

  abort(err: Error) {
    this.output.destroy(err);
  }
}

/*
 * Just enough of a PDF reader to check what a pdfmake/pdfkit document says: inflates the streams,
 * reads each font's ToUnicode CMap and decodes the hex glyph strings of Tj/TJ in the content streams.
 */
import { inflateSync } from 'node:zlib';

interface Obj {
  dict: string;
  stream?: Buffer;
}

function objects(pdf: Buffer): Map<number, Obj> {
  const s = pdf.toString('latin1');
  const out = new Map<number, Obj>();
  const re = /(\d+) 0 obj\s*([\s\S]*?)endobj/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const body = m[2] ?? '';
    const si = body.indexOf('stream');
    if (si < 0) {
      out.set(Number(m[1]), { dict: body });
      continue;
    }
    const dict = body.slice(0, si);
    let start = si + 'stream'.length;
    if (body[start] === '\r') start++;
    if (body[start] === '\n') start++;
    const end = body.lastIndexOf('endstream');
    let raw = Buffer.from(body.slice(start, end), 'latin1');
    const len = /\/Length (\d+)(?!\s+0\s+R)/.exec(dict);
    if (len) raw = raw.subarray(0, Number(len[1]));
    let stream = raw;
    if (/\/FlateDecode/.test(dict)) {
      try {
        stream = inflateSync(raw);
      } catch {
        stream = raw;
      }
    }
    out.set(Number(m[1]), { dict, stream });
  }
  return out;
}

function cmapOf(text: string): Map<number, string> {
  const map = new Map<number, string>();
  const hexToStr = (h: string) => {
    let r = '';
    for (let i = 0; i + 4 <= h.length; i += 4) r += String.fromCharCode(Number.parseInt(h.slice(i, i + 4), 16));
    return r;
  };
  for (const block of text.match(/beginbfchar([\s\S]*?)endbfchar/g) ?? []) {
    for (const m of block.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(Number.parseInt(m[1] ?? '0', 16), hexToStr(m[2] ?? ''));
  }
  for (const block of text.match(/beginbfrange([\s\S]*?)endbfrange/g) ?? []) {
    for (const m of block.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const lo = Number.parseInt(m[1] ?? '0', 16);
      const hi = Number.parseInt(m[2] ?? '0', 16);
      const dst = m[3] ?? '';
      if (dst.startsWith('[')) {
        const items = [...dst.matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => hexToStr(x[1] ?? ''));
        for (const [i, v] of items.entries()) map.set(lo + i, v);
      } else {
        const base = Number.parseInt(dst.slice(1, -1), 16);
        for (let c = lo; c <= hi; c++) map.set(c, String.fromCharCode(base + (c - lo)));
      }
    }
  }
  return map;
}

/** Font resource name → ToUnicode map of every font of the document. */
function fontMapsOf(objs: Map<number, Obj>): Map<string, Map<number, string>> {
  // Font resource name (F1, F2 …) → ToUnicode map; pdfkit names fonts uniquely per document.
  const fontMaps = new Map<string, Map<number, string>>();
  const fontObj = new Map<number, Map<number, string>>();
  for (const [id, o] of objs) {
    const tu = /\/ToUnicode (\d+) 0 R/.exec(o.dict);
    if (/\/Type \/Font/.test(o.dict) && tu) {
      const cm = objs.get(Number(tu[1]));
      if (cm?.stream) fontObj.set(id, cmapOf(cm.stream.toString('latin1')));
    }
  }
  for (const o of objs.values()) {
    for (const m of o.dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const map = fontObj.get(Number(m[2]));
      if (map && m[1]) fontMaps.set(m[1], map);
    }
  }
  return fontMaps;
}

/** The text runs drawn by one content stream. */
function streamText(content: string, fontMaps: Map<string, Map<number, string>>, parts: string[]): void {
  let font: Map<number, string> | undefined;
  const re = /\/(F\d+)\s+[\d.]+\s+Tf|\[((?:[^\]\\]|\\.)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g;
  for (let m = re.exec(content); m; m = re.exec(content)) {
    if (m[1]) {
      font = fontMaps.get(m[1]);
      continue;
    }
    const hexes = m[2] !== undefined ? [...m[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1] ?? '') : [m[3] ?? ''];
    let run = '';
    for (const h of hexes)
      for (let i = 0; i + 4 <= h.length; i += 4) run += font?.get(Number.parseInt(h.slice(i, i + 4), 16)) ?? '';
    parts.push(run);
  }
}

const isContent = (o: Obj) =>
  !!o.stream && !/\/Type \/(XObject|Font|FontDescriptor)|\/Subtype \/(Type0|CIDFontType2|Image)|\/Length1/.test(o.dict);

/** The text of every page, in drawing order (words of a TJ joined, runs separated by spaces). */
export function pdfText(pdf: Buffer): string {
  const objs = objects(pdf);
  const fontMaps = fontMapsOf(objs);
  const parts: string[] = [];
  for (const o of objs.values()) {
    if (!isContent(o)) continue;
    const content = (o.stream as Buffer).toString('latin1');
    if (!/\bT[Jj]\b/.test(content)) continue;
    streamText(content, fontMaps, parts);
  }
  return parts.join(' ').replace(/\u00a0/g, ' ');
}

/**
 * The text of each page, in page order: the page tree's kids (`/Type /Pages` → `/Kids`), each page's
 * `/Contents` stream(s) and the form XObjects it draws (pdfmake draws SVG charts as forms).
 */
export function pdfPages(pdf: Buffer): string[] {
  const objs = objects(pdf);
  const fontMaps = fontMapsOf(objs);
  const refs = (s: string) => [...s.matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  const pages: number[] = [];
  const walk = (id: number) => {
    const o = objs.get(id);
    if (!o) return;
    if (/\/Type\s*\/Pages\b/.test(o.dict)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(o.dict);
      for (const k of refs(kids?.[1] ?? '')) walk(k);
    } else if (/\/Type\s*\/Page\b/.test(o.dict)) pages.push(id);
  };
  const root = [...objs.entries()].find(([, o]) => /\/Type\s*\/Catalog\b/.test(o.dict));
  const top = root ? /\/Pages (\d+) 0 R/.exec(root[1].dict) : null;
  if (top) walk(Number(top[1]));
  return pages.map((id) => {
    const page = objs.get(id) as Obj;
    const contents = /\/Contents\s*(\[[^\]]*\]|\d+ 0 R)/.exec(page.dict);
    const parts: string[] = [];
    for (const c of refs(contents?.[1] ?? '')) {
      const o = objs.get(c);
      if (o?.stream) streamText(o.stream.toString('latin1'), fontMaps, parts);
    }
    return parts.join(' ').replace(/\u00a0/g, ' ');
  });
}

/*
 * Telegram's public web preview of a channel (`<base>/s/<username>`, older posts by `?before=<id>`):
 * the page lists the latest ~20 posts, each a `.tgme_widget_message` block with `data-post="name/id"`,
 * the author (`.tgme_widget_message_from_author` when the post is signed, else the channel's name),
 * «Forwarded from» (`.tgme_widget_message_forwarded_from_name`), the text or media caption
 * (`.tgme_widget_message_text`: `<br>` is a line break, emoji are `<i class="emoji"><b>🔥</b></i>`,
 * links keep their text), views («1.2K») and the time (`<time datetime>`). A username that is no
 * public channel answers with a page without the channel block (`.tgme_channel_info`), often after
 * a redirect to `<base>/<username>`. Parsed with htmlparser2 (a real HTML parser, not patterns).
 */
import type { ChildNode, Element } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';

export interface PreviewPost {
  /** The post's number inside the channel. */
  id: number;
  postedAt: Date;
  text: string;
  /** The signature of a signed post, else the channel's name. */
  author: string | null;
  forwardedFrom: string | null;
  /** «1.2K» → 1200; null when the page shows none. */
  views: number | null;
}

export interface PreviewPage {
  /** False: the page has no public channel (unknown username, a user, a private channel). */
  exists: boolean;
  title: string | null;
  posts: PreviewPost[];
  /** The `before` of the page of older posts, when the page links one. */
  before: number | null;
}

const hasClass = (el: Element, cls: string) => (el.attribs.class ?? '').split(/\s+/).includes(cls);
const byClass = (root: ChildNode[] | ChildNode, cls: string) =>
  DomUtils.findAll((el) => hasClass(el, cls), Array.isArray(root) ? root : [root]);
const firstByClass = (root: ChildNode[] | ChildNode, cls: string) =>
  DomUtils.findOne((el) => hasClass(el, cls), Array.isArray(root) ? root : [root]) ?? null;

/** The text of a node as a reader sees it: `<br>` as a new line, everything else by its text. */
function textOf(node: ChildNode): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return '';
  const el = node as Element;
  if (el.name === 'br') return '\n';
  if (el.name === 'script' || el.name === 'style') return '';
  return el.children.map(textOf).join('');
}
const clean = (s: string | null | undefined) => {
  const t = (s ?? '').replace(/\u00a0/g, ' ').trim();
  return t || null;
};

/** «987», «1.2K», «3,4M» → a number. */
export function parseViews(s: string | null): number | null {
  const m = /^([\d.,]+)\s*([KMB])?$/i.exec((s ?? '').trim());
  if (!m?.[1]) return null;
  const n = Number(m[1].replace(',', '.'));
  if (!Number.isFinite(n)) return null;
  const mult = { K: 1e3, M: 1e6, B: 1e9 }[(m[2] ?? '').toUpperCase() as 'K' | 'M' | 'B'] ?? 1;
  return Math.round(n * mult);
}

export function parsePreview(html: string, username: string): PreviewPage {
  const doc = parseDocument(html, { decodeEntities: true });
  const name = username.replace(/^@/, '').toLowerCase();
  const info = firstByClass(doc.children, 'tgme_channel_info');
  const title = info ? clean(textOf(firstByClass(info, 'tgme_channel_info_header_title') ?? info)) : null;
  const posts: PreviewPost[] = [];
  for (const el of byClass(doc.children, 'tgme_widget_message')) {
    const post = el.attribs['data-post'] ?? '';
    const m = /^([^/]+)\/(\d+)$/.exec(post);
    // Another channel's post (a preview embedding one) is not this channel's.
    if (!m?.[1] || !m[2] || m[1].toLowerCase() !== name) continue;
    const id = Number(m[2]);
    const time = DomUtils.findOne((x) => x.name === 'time' && !!x.attribs.datetime, [el]);
    const postedAt = time ? new Date(time.attribs.datetime as string) : null;
    if (!Number.isSafeInteger(id) || id <= 0 || !postedAt || Number.isNaN(postedAt.getTime())) continue;
    const textEl = firstByClass(el, 'tgme_widget_message_text');
    const signed = firstByClass(el, 'tgme_widget_message_from_author');
    const owner = firstByClass(el, 'tgme_widget_message_owner_name');
    const fwd = firstByClass(el, 'tgme_widget_message_forwarded_from_name');
    const views = firstByClass(el, 'tgme_widget_message_views');
    posts.push({
      id,
      postedAt,
      text: textEl ? (clean(textOf(textEl)) ?? '') : '',
      author: clean(signed ? textOf(signed) : owner ? textOf(owner) : null),
      forwardedFrom: clean(fwd ? textOf(fwd) : null),
      views: parseViews(views ? textOf(views) : null),
    });
  }
  posts.sort((a, b) => a.id - b.id);
  const more =
    DomUtils.findOne((x) => x.name === 'link' && x.attribs.rel === 'prev' && !!x.attribs.href, doc.children) ??
    firstByClass(doc.children, 'tme_messages_more');
  const beforeRaw = more?.attribs['data-before'] ?? /[?&]before=(\d+)/.exec(more?.attribs.href ?? '')?.[1];
  const before = beforeRaw && /^\d+$/.test(beforeRaw) ? Number(beforeRaw) : null;
  return { exists: info !== null || posts.length > 0, title, posts, before };
}

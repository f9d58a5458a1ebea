/*
 * A local stand-in for Telegram's public web preview (https://t.me/s/<channel>): pages built in the
 * markup Telegram serves (message blocks with data-post, author, «Forwarded from», text with <br>,
 * emoji and links, views, <time datetime>, the «older posts» link by ?before=), 20 posts a page,
 * newest last. An unknown channel redirects to /<name>, a page without the channel block, as Telegram
 * does. Used by the API tests and by e2e/telegram.spec.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePost {
  id: number;
  /** HTML of the message text (Telegram's: <br/>, <a href>, <i class="emoji"><b>🔥</b></i>, <b>). */
  html: string;
  date: Date;
  /** A signed post's author. */
  author?: string;
  forwardedFrom?: string;
  views?: string;
}
export interface FakeChannel {
  title: string;
  posts: FakePost[];
}

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function postHtml(name: string, title: string, p: FakePost): string {
  return `<div class="tgme_widget_message_wrap js-widget_message_wrap"><div class="tgme_widget_message text_not_supported_wrap js-widget_message" data-post="${name}/${p.id}" data-view="eyJjIjoxfQ">
  <div class="tgme_widget_message_user"><a href="https://t.me/${name}"><i class="tgme_widget_message_user_photo bgcolor1" data-content="${esc(title[0] ?? '')}"></i></a></div>
  <div class="tgme_widget_message_bubble"><i class="tgme_widget_message_bubble_tail"></i>
    <div class="tgme_widget_message_author accent_color"><a class="tgme_widget_message_owner_name" href="https://t.me/${name}"><span dir="auto">${esc(title)}</span></a></div>
    ${p.forwardedFrom ? `<div class="tgme_widget_message_forwarded_from accent_color">Forwarded from <a class="tgme_widget_message_forwarded_from_name" href="https://t.me/other"><span dir="auto">${esc(p.forwardedFrom)}</span></a></div>` : ''}
    <div class="tgme_widget_message_text js-message_text" dir="auto">${p.html}</div>
    <div class="tgme_widget_message_footer compact js-message_footer"><div class="tgme_widget_message_info short js-message_info">
      <span class="tgme_widget_message_views">${p.views ?? '1.2K'}</span><span class="copyonly">&nbsp;views</span>
      ${p.author ? `<span class="tgme_widget_message_from_author" dir="auto">${esc(p.author)}</span>,&nbsp;` : ''}
      <span class="tgme_widget_message_meta"><a class="tgme_widget_message_date" href="https://t.me/${name}/${p.id}"><time datetime="${p.date.toISOString().replace('.000Z', '+00:00')}" class="time">12:00</time></a></span>
    </div></div>
  </div>
</div></div>`;
}

/** The page of posts older than `before` (the newest page without it). */
export function previewPage(name: string, ch: FakeChannel, before?: number, pageSize = 20): string {
  const older = ch.posts.filter((p) => before === undefined || p.id < before).sort((a, b) => a.id - b.id);
  const page = older.slice(-pageSize);
  const first = page[0]?.id;
  const more = first !== undefined && older.length > page.length ? first : null;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${esc(ch.title)} – Telegram</title>
${more ? `<link rel="prev" href="/s/${name}?before=${more}">` : ''}
<link rel="canonical" href="https://t.me/s/${name}"></head>
<body class="widget_frame_base tgme_widget body_widget_post emoji_image nodark">
<header class="tgme_header"><div class="tgme_channel_info"><div class="tgme_channel_info_header"><div class="tgme_channel_info_header_title"><span dir="auto">${esc(ch.title)}</span></div><div class="tgme_channel_info_header_username"><a href="https://t.me/${name}">@${name}</a></div></div></div></header>
<main class="tgme_main"><section class="tgme_channel_history js-message_history">
${more ? `<div class="tgme_widget_message_centered js-messages_more_wrap"><a href="/s/${name}?before=${more}" class="tme_messages_more js-messages_more" data-before="${more}"></a></div>` : ''}
${page.map((p) => postHtml(name, ch.title, p)).join('\n')}
</section></main></body></html>`;
}

/** What Telegram answers for a name that is no public channel (after the redirect from /s/<name>). */
const NO_CHANNEL = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Telegram: Contact @x</title></head>
<body><div class="tgme_page_wrap"><div class="tgme_page"><div class="tgme_page_title"><span dir="auto">Telegram</span></div>
<div class="tgme_page_description">If you have <strong>Telegram</strong>, you can contact us right away.</div></div></div></body></html>`;

export interface PreviewServer {
  url: string;
  channels: Map<string, FakeChannel>;
  /** Every path requested, in order. */
  requests: string[];
  /** The most requests of one channel in flight at once. */
  maxInFlight: Map<string, number>;
  /** Each answer waits this long (concurrency tests). */
  delayMs: number;
  close(): Promise<void>;
}

export async function startPreviewServer(channels: Record<string, FakeChannel> = {}): Promise<PreviewServer> {
  const inFlight = new Map<string, number>();
  const s: PreviewServer = {
    url: '',
    channels: new Map(Object.entries(channels)),
    requests: [],
    maxInFlight: new Map(),
    delayMs: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    s.requests.push(`${u.pathname}${u.search}`);
    const m = /^\/s\/([^/]+)$/.exec(u.pathname);
    if (!m?.[1]) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(NO_CHANNEL);
    }
    const name = m[1].toLowerCase();
    inFlight.set(name, (inFlight.get(name) ?? 0) + 1);
    s.maxInFlight.set(name, Math.max(s.maxInFlight.get(name) ?? 0, inFlight.get(name) ?? 0));
    if (s.delayMs) await new Promise((r) => setTimeout(r, s.delayMs));
    inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
    const ch = s.channels.get(name);
    if (!ch) {
      res.writeHead(302, { location: `/${name}` });
      return res.end();
    }
    const before = u.searchParams.get('before');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(previewPage(name, ch, before ? Number(before) : undefined));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}

/** Posts 1..n of a channel, an hour apart, text made by `text(i)`. */
export function fakePosts(n: number, text: (i: number) => string, from = 1): FakePost[] {
  return Array.from({ length: n }, (_, k) => {
    const id = from + k;
    return { id, html: text(id), date: new Date(Date.UTC(2026, 10, 1) + id * 3_600_000) };
  });
}

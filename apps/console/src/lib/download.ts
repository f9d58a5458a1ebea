/*
 * File downloads of the console. A download is a plain same-origin link (`<a href download>`) so the
 * browser streams it straight to disk (exports can be hundreds of MB: never read into a Blob). But a
 * plain link bypasses the http client: with an expired access cookie the browser would save the
 * API's JSON 401 body as the «file». So a click first makes sure the session is valid through the
 * http client (its shared refresh-on-401), then starts the browser download of the same URL.
 */
import type { MouseEvent } from 'react';
import { type ErrorMode, http } from './http';

/**
 * Makes sure the access session is valid: GET /me through the http client, whose 401 goes through
 * the one shared refresh and a retry. A session that cannot be refreshed ends with the usual logout
 * (reload to /login?redirect=…); other failures (no connection, 5xx) are reported per `errorMode`
 * (toasted by default). Resolves true when the session is valid now.
 */
export async function ensureSession(errorMode: ErrorMode = 'toast'): Promise<boolean> {
  try {
    await http.get('me', { context: { errorMode } });
    return true;
  } catch {
    return false;
  }
}

/** Starts the browser's own (streaming) download of a same-origin URL; `fileName` as in `download`. */
function startDownload(url: string, fileName = ''): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
}

/** URLs whose session check is under way: a double click starts one download, not two. */
const pending = new Set<string>();

/** Ensures the session, then downloads `url` (nothing happens when the session is gone: logout runs). */
async function downloadFile(url: string, fileName = ''): Promise<void> {
  if (pending.has(url)) return;
  pending.add(url);
  try {
    if (await ensureSession()) startDownload(url, fileName);
  } finally {
    pending.delete(url);
  }
}

/**
 * `onClick` of any download link — `<a href download>` or an antd `<Button href download>` (which
 * renders an `<a>`): the link keeps its role, name, href and `download` name (copy link, a11y, e2e),
 * while the click goes through {@link downloadFile} instead of the browser's direct navigation.
 *
 *   <Button href={url} download={name} onClick={onDownloadClick}>Скачать</Button>
 */
export function onDownloadClick(event: MouseEvent<HTMLElement>): void {
  const link = event.currentTarget.closest('a');
  const href = link?.getAttribute('href');
  if (!link || !href) return; // disabled (antd drops href): nothing to download
  event.preventDefault();
  void downloadFile(href, link.getAttribute('download') ?? '');
}

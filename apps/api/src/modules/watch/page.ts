/*
 * What the watch reads from a page: a hash of the normalised HTML (what changes between two visits of
 * an unchanged page is dropped: comments, scripts and styles, values of inputs and nonces, numbers of
 * six digits or more such as timestamps and tokens, case and whitespace) and whether it asks for a
 * password (a login form).
 */
import { createHash } from 'node:crypto';

export function normaliseHtml(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '<script>')
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, '<style>')
    .replace(/\s(value|nonce|content|data-[\w-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, ' $1')
    .replace(/\d{6,}/g, '#')
    .replace(/\s+/g, ' ')
    .replace(/\s*([<>])\s*/g, '$1')
    .trim()
    .toLowerCase();
}

/** sha256 of the normalised HTML, the first 128 bits in hex. */
export const contentHash = (html: string) => createHash('sha256').update(normaliseHtml(html)).digest('hex').slice(0, 32);

/** A password field: `<input type=password>` or an input asking for the current password. */
export function hasLoginForm(html: string): boolean {
  return (
    /<input\b[^>]*\btype\s*=\s*["']?password\b/i.test(html) ||
    /<input\b[^>]*\bautocomplete\s*=\s*["']?current-password\b/i.test(html)
  );
}

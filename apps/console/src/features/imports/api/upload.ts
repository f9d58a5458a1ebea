/*
 * The file upload with a progress bar: XMLHttpRequest (fetch/ky cannot report upload progress).
 * Same origin, the session cookie goes along; a 401 refreshes the session through the console's
 * HTTP client once and sends the file again.
 */
import type { ImportUploadResponse } from '@forpost/contract/imports';
import { MSG } from '@forpost/contract/messages';
import { ensureSession } from '../../../lib/download';
import { API_PREFIX } from '../../../lib/http';

class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function send(
  url: string,
  body: FormData,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(99, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new UploadError('Нет связи с сервером', 0));
    xhr.onabort = () => reject(new UploadError('Загрузка отменена', 0));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(body);
  });
}

export async function uploadImportFile(
  base: string,
  file: File,
  opts: { companyId?: number; onProgress: (percent: number) => void; signal?: AbortSignal },
): Promise<ImportUploadResponse> {
  const form = () => {
    const f = new FormData();
    if (opts.companyId !== undefined) f.append('company_id', String(opts.companyId));
    f.append('file', file, file.name);
    return f;
  };
  const url = `${API_PREFIX}/${base}`;
  let r = await send(url, form(), opts.onProgress, opts.signal);
  if (r.status === 401) {
    // Refreshes the session (shared with every other request) or ends it.
    await ensureSession('silent');
    r = await send(url, form(), opts.onProgress, opts.signal);
  }
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    body = undefined;
  }
  if (r.status !== 201) {
    const message =
      (body as { message?: string } | undefined)?.message ?? (r.status === 413 ? 'Файл слишком большой' : MSG.generic);
    throw new UploadError(message, r.status);
  }
  opts.onProgress(100);
  return body as ImportUploadResponse;
}

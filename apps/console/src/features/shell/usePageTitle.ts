import { useEffect } from 'react';

export const PRODUCT_NAME = 'Форпост';

/** Sets the document title to «<title> — Форпост» (just «Форпост» without a title). */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} — ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}

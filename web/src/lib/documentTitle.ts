import { useEffect } from 'react';

/**
 * useDocumentTitle names the browser tab after the page ("Contact Us |
 * Salaula") while the page is shown, and gives the previous title back when
 * it goes (the home page keeps index.html's).
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const before = document.title;
    document.title = `${title} | Salaula`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

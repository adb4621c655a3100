import { useEffect } from 'react';

/** Sets the page title while the component is mounted. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/**
 * Publishes a length measured off an element (its height, its bottom edge) as a CSS custom
 * property on the page's root while the element is mounted, and follows its size changes, so
 * stylesheets can place other overlays around it (the marker popup above the admin dock, the
 * side panels under the top bar on a phone).
 */
import { useEffect } from 'react';

export function usePublishedLength(element: HTMLElement | null, property: `--${string}`, measure: (box: DOMRect) => number): void {
  useEffect(() => {
    if (!element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(property, `${Math.ceil(measure(element.getBoundingClientRect()))}px`);
    // The observer's first call comes after the next layout, before its paint: measured there,
    // the page's first layout is not forced early and then done again (33 ms of a map's first
    // second on a slow machine). Without an observer, measure now.
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(publish) : null;
    if (observer) observer.observe(element);
    else publish();
    return () => {
      observer?.disconnect();
      root.style.removeProperty(property);
    };
    // `measure` is a plain function of the box: a new one each render must not re-subscribe.
  }, [element, property]);
}

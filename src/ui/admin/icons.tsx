/**
 * The editor's small line icons (18 × 18, currentColor). Decorative: every button carries its
 * own accessible name.
 */
import type { ReactNode } from 'react';

export type AdminIcon = 'pen' | 'line' | 'arrow' | 'rect' | 'circle' | 'poly' | 'text' | 'marker' | 'edit' | 'move' | 'undo' | 'redo';

const PATHS: Record<AdminIcon, ReactNode> = {
  pen: <path d="M3 15c2-5 4-9 6-6s3 4 6-4" />,
  line: <path d="M3 15 15 3" />,
  arrow: (
    <>
      <path d="M3 15 15 3" />
      <path d="M8 3h7v7" />
    </>
  ),
  rect: <rect x="3" y="5" width="12" height="9" rx="0.5" />,
  circle: <circle cx="9" cy="9" r="6" />,
  poly: (
    <>
      <path d="M3 14 6 4l6 3 3 8" />
      <circle cx="3" cy="14" r="1" />
      <circle cx="6" cy="4" r="1" />
      <circle cx="12" cy="7" r="1" />
      <circle cx="15" cy="15" r="1" />
    </>
  ),
  text: <path d="M4 4h10M9 4v11M7 15h4" />,
  marker: (
    <>
      <path d="M9 16s-5-5-5-8.5a5 5 0 0 1 10 0C14 11 9 16 9 16Z" />
      <circle cx="9" cy="7.5" r="1.6" />
    </>
  ),
  edit: (
    <>
      <path d="M4 14h3L15 6l-3-3-8 8v3Z" />
      <path d="M10.5 4.5l3 3" />
    </>
  ),
  move: <path d="M9 2v14M2 9h14M9 2 7 4M9 2l2 2M9 16l-2-2M9 16l2-2M2 9l2-2M2 9l2 2M16 9l-2-2M16 9l-2 2" />,
  undo: (
    <>
      <path d="M6 4 3 7l3 3" />
      <path d="M3 7h7a4.5 4.5 0 0 1 0 9H7" />
    </>
  ),
  redo: (
    <>
      <path d="m12 4 3 3-3 3" />
      <path d="M15 7H8a4.5 4.5 0 0 0 0 9h3" />
    </>
  ),
};

export function Icon({ name }: { name: AdminIcon }) {
  return (
    <svg className="admin-icon" viewBox="0 0 18 18" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {PATHS[name]}
    </svg>
  );
}

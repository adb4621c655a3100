/**
 * Skip links: the map page's first Tab stops, hidden until focused (skip-links.css). The panels
 * hold some 190 Tab stops (a checkbox per category and subcategory, the levels, the quests), so
 * a keyboard user jumps from here to Find a marker, the quest list or (admins) the tools panel.
 * Each link moves the focus itself (the URL's hash is left alone: `#pos=` is the page's). Hidden
 * panels (Hide panels; a phone starts with them hidden) are shown first, then focused once drawn.
 */
import { useTranslation } from 'react-i18next';
import type { MouseEvent } from 'react';
import { setPanelsShown } from '../../state/layout';
import { SKIP_TARGETS } from '../skipTargets';
import './skip-links.css';

/** How long a link waits for its target to appear (panels shown, the admin dock's chunk loaded), in ms. */
export const SKIP_WAIT_MS = 2000;
const RETRY_MS = 25;

/** Focuses the first of `ids` that takes the focus (a disabled field does not); false if none does. */
function focusFirst(ids: readonly string[]): boolean {
  for (const id of ids) {
    const element = document.getElementById(id);
    if (!element) continue;
    element.focus();
    if (document.activeElement === element) return true;
  }
  return false;
}

/** Focuses a target now, or as soon as it is drawn (within SKIP_WAIT_MS). */
export function focusSkipTarget(ids: readonly string[], panels: boolean): void {
  if (focusFirst(ids)) return;
  if (panels) setPanelsShown(true);
  const until = Date.now() + SKIP_WAIT_MS;
  const retry = () => {
    if (focusFirst(ids) || Date.now() > until) return;
    setTimeout(retry, RETRY_MS);
  };
  setTimeout(retry, 0);
}

interface SkipLink {
  key: string;
  label: string;
  ids: readonly string[];
  panels: boolean;
}

export function SkipLinks({ admin = false }: { admin?: boolean }) {
  const { t } = useTranslation();
  const links: SkipLink[] = [
    { key: 'search', label: t('skip.search'), ids: [SKIP_TARGETS.searchInput, SKIP_TARGETS.search], panels: true },
    { key: 'quests', label: t('skip.quests'), ids: [SKIP_TARGETS.quests], panels: true },
  ];
  if (admin) links.push({ key: 'admin', label: t('skip.adminTools'), ids: [SKIP_TARGETS.adminTools], panels: false });
  return (
    <div className="skip-links">
      {links.map((link) => (
        <a
          key={link.key}
          className="skip-links__link"
          href={`#${link.ids[0]}`}
          onClick={(event: MouseEvent<HTMLAnchorElement>) => {
            event.preventDefault();
            focusSkipTarget(link.ids, link.panels);
          }}
        >
          {link.label}
        </a>
      ))}
    </div>
  );
}

import { useEffect, useId, useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { MAPS } from '../../domain/maps';
import { recogniseScreenshotName, type PlayerPosition } from '../../domain/position';
import { isPositionOnMap } from '../../domain/position-bounds';
import { mapView } from '../../state/mapView';
import { isNarrowWindow, layout, setPanelsShown } from '../../state/layout';
import { player, resetPlayerPosition, setPlayerPosition } from '../../state/player';
import { LookArrowToggle } from '../settings/LookArrowToggle';

type Result = 'none' | 'found' | 'notRecognised' | 'badLink' | 'offMap';

/**
 * Why a position from the address was not used: `#pos=` not three numbers (its text), or three
 * numbers that are not on this map.
 */
export type PosLinkProblem = { kind: 'format'; text: string } | { kind: 'offMap'; position: PlayerPosition };

/** The open map's id, when the position is not on it (null: on it, or no map open). */
export function mapNotHolding(position: PlayerPosition): string | null {
  const id = mapView.mapId;
  return id !== null && !isPositionOnMap(position, MAPS[id]) ? id : null;
}

/** The most of a bad `#pos=` text the hint quotes (a link can carry anything). */
const QUOTED_MAX = 40;
const quoted = (text: string) => (text.length > QUOTED_MAX ? `${text.slice(0, QUOTED_MAX - 1)}…` : text);

const round2 = (n: number) => Math.round(n * 100) / 100;
/** A coordinate as the hint shows it: 2 decimals, or in exponent form past a million (a made-up 1e200). */
const shortNumber = (n: number) => (Math.abs(n) < 1e6 ? String(round2(n)) : n.toExponential(2));

/**
 * The where-am-I box: a screenshot file name pasted (applied at once) or typed (applied on
 * Enter or when the box loses focus) becomes the player position. A name that is not
 * recognised puts the player at 0, 0, 0 with no look (spec §5) and says so; that reset picks no
 * level and moves no view (beyond the spec: a typo must not change what the user looks at). Below it, the
 * look-direction arrow toggle (pro; marked Pro for visitors, absent for admins). Escape inside
 * the box folds it (`onClose`), as the disclosure it is. Opened by a `#pos=` link that was not
 * three numbers (`badPosLink`), it says so and takes no focus (the page just loaded; the
 * visitor did not ask for the box).
 *
 * On a phone (NARROW_QUERY) the box and the panels' sheets take turns (docs/DECISIONS.md, "Where
 * am I and the panels on a phone"): the box grows the top bar by some 170 px, and with both sheets
 * shown under it the categories kept some 120 px (no category row) and the map a strip. Opening
 * the box hides the panels; showing the panels (Menu › Show panels) folds the box.
 */
export function WhereAmI({ onHelp, onClose, badPosLink = null }: { onHelp: () => void; onClose: () => void; badPosLink?: PosLinkProblem | null }) {
  const { t } = useTranslation();
  const inputId = useId();
  const hintId = useId();
  const [value, setValue] = useState('');
  const [result, setResult] = useState<Result>(badPosLink === null ? 'none' : badPosLink.kind === 'format' ? 'badLink' : 'offMap');
  // The position of an 'offMap' result: shown, not used.
  const [offMap, setOffMap] = useState<PlayerPosition | null>(badPosLink?.kind === 'offMap' ? badPosLink.position : null);
  const applied = useRef<string | null>(null);
  const { position } = useSnapshot(player);

  useEffect(() => {
    if (isNarrowWindow() && layout.panelsShown) setPanelsShown(false);
  }, []);
  useEffect(
    () =>
      subscribeKey(layout, 'panelsShown', (shown) => {
        if (shown && isNarrowWindow()) onClose();
      }),
    [onClose],
  );

  const apply = (text: string) => {
    applied.current = text;
    // parseScreenshotName's rule, told apart: not recognised → 0, 0, 0 and look null (spec §5),
    // as a reset rather than a place the player is at.
    const recognised = recogniseScreenshotName(text);
    // A position that cannot be on this map (another map's screenshot, a made-up number) is
    // said and not used: the marker and the view stay as they were.
    if (recognised && mapNotHolding(recognised) !== null) {
      setOffMap(recognised);
      setResult('offMap');
      return;
    }
    if (recognised) setPlayerPosition(recognised);
    else resetPlayerPosition();
    setResult(recognised ? 'found' : 'notRecognised');
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!text) return;
    event.preventDefault();
    setValue(text);
    apply(text);
  };

  // Handled here, so the Escape does not also close a marker popup open behind the box.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply(value);
  };

  return (
    <form className="where-am-i" onSubmit={onSubmit} onKeyDown={onKeyDown}>
      <label htmlFor={inputId} className="where-am-i__label">
        {t('whereAmI.fileName')}
      </label>
      <div className="where-am-i__row">
        <input
          id={inputId}
          className="where-am-i__input"
          type="text"
          value={value}
          autoFocus={badPosLink === null}
          spellCheck={false}
          autoComplete="off"
          placeholder={t('whereAmI.placeholder')}
          aria-describedby={hintId}
          onChange={(event) => setValue(event.target.value)}
          onPaste={onPaste}
          onBlur={() => {
            if (value.trim() && value !== applied.current) apply(value);
          }}
        />
        <button type="button" className="topbar-button topbar-button--hint" onClick={onHelp}>
          {t('whereAmI.help')}
        </button>
      </div>
      <p id={hintId} className={`where-am-i__hint where-am-i__hint--${result}`} role="status">
        {result === 'notRecognised' && t('whereAmI.notRecognised')}
        {result === 'found' &&
          position &&
          t('whereAmI.found', { x: round2(position.x), y: round2(position.y), z: round2(position.z) })}
        {result === 'badLink' && t('whereAmI.badLink', { text: quoted(badPosLink?.kind === 'format' ? badPosLink.text : '') })}
        {result === 'offMap' &&
          offMap &&
          t('whereAmI.offMap', { x: shortNumber(offMap.x), y: shortNumber(offMap.y), map: t(`maps.${mapView.mapId ?? ''}`, { defaultValue: '' }) })}
        {result === 'none' && t('whereAmI.intro')}
      </p>
      <LookArrowToggle />
    </form>
  );
}

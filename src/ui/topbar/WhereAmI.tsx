import { useEffect, useId, useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { MAPS } from '../../domain/maps';
import { recogniseScreenshotName, screenshotNameProblem, type PlayerPosition, type ScreenshotNameProblem } from '../../domain/position';
import { isPositionOnMap } from '../../domain/position-bounds';
import { mapView } from '../../state/mapView';
import { isNarrowWindow, layout, setPanelsShown } from '../../state/layout';
import { player, resetPlayerPosition, setPlayerPosition } from '../../state/player';
import { LookArrowToggle } from '../settings/LookArrowToggle';

/** Why a name was not read, by what looks wrong (src/domain/position.ts `screenshotNameProblem`). */
const NAME_PROBLEM_TEXT = { russianLayout: 'whereAmI.russianLayout', decimalComma: 'whereAmI.decimalComma' } as const satisfies Record<ScreenshotNameProblem, string>;

type Result = 'none' | 'found' | 'notRecognised' | 'badLink' | 'offMap';

/** A name not read: what looked wrong (null: no position in it), and whether the marker was reset. */
interface NotRead {
  problem: ScreenshotNameProblem | null;
  reset: boolean;
}

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
 * Enter, or when the box loses focus if it holds a position) becomes the player position. A
 * pasted name that is not recognised puts the player at 0, 0, 0 with no look (spec §5: "pasted
 * file name … if not parseable, all values reset") and says so; that reset picks no level and
 * moves no view (beyond the spec: a typo must not change what the user looks at). Typed text that
 * is not recognised (a stray key, Enter on a half-typed name) only says so: the position stays;
 * Enter in an empty box does nothing (docs/DECISIONS.md "Where am I keeps a good position"). The
 * box opened again says where the player is, while a position is set. Below it, the
 * look-direction arrow toggle (pro; marked Pro for visitors, absent for admins). Escape inside
 * the box folds it (`onClose`), as the disclosure it is. Opened by a `#pos=` link that was not
 * three numbers (`badPosLink`), it says so and takes no focus (the page just loaded; the
 * visitor did not ask for the box). A position from elsewhere (a `#pos=` link, the live feed)
 * empties the box of the name it applied, which no longer says where the player is.
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
  const [notRead, setNotRead] = useState<NotRead>({ problem: null, reset: false });
  // The position of an 'offMap' result: shown, not used.
  const [offMap, setOffMap] = useState<PlayerPosition | null>(badPosLink?.kind === 'offMap' ? badPosLink.position : null);
  const applied = useRef<string | null>(null);
  // The player's update this box made last (player.updates), to tell it from one from elsewhere.
  const ownUpdate = useRef<number | null>(null);
  const { position, located } = useSnapshot(player);

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
  // A position from elsewhere (a #pos= link, the live feed): the name this box applied no
  // longer says where the player is, so it goes, and the hint says the new position (a name
  // being typed stays: it is not applied yet). docs/DECISIONS.md "Where am I drops a name that
  // no longer holds".
  useEffect(
    () =>
      subscribeKey(player, 'updates', (updates) => {
        if (updates === ownUpdate.current) return;
        const name = applied.current;
        applied.current = null;
        setValue((current) => (current === name ? '' : current));
        setResult('none');
      }),
    [],
  );

  /** `pasted`: the spec's reset applies to a name not recognised; typed text only says so. */
  const apply = (text: string, pasted: boolean) => {
    // Nothing to read (Enter in an empty box): nothing happens, the position stays.
    if (text.trim() === '') return;
    applied.current = text;
    // parseScreenshotName's rule, told apart: a pasted name not recognised → 0, 0, 0 and look
    // null (spec §5), as a reset rather than a place the player is at.
    const recognised = recogniseScreenshotName(text);
    // A position that cannot be on this map (another map's screenshot, a made-up number) is
    // said and not used: the marker and the view stay as they were.
    if (recognised && mapNotHolding(recognised) !== null) {
      setOffMap(recognised);
      setResult('offMap');
      return;
    }
    if (recognised) setPlayerPosition(recognised);
    else {
      if (pasted) resetPlayerPosition();
      setNotRead({ problem: screenshotNameProblem(text), reset: pasted });
    }
    if (recognised || pasted) ownUpdate.current = player.updates;
    setResult(recognised ? 'found' : 'notRecognised');
  };

  // With nothing else to say, the box says where the player is (a name applied, the box opened
  // again after one, a #pos= link, the live feed moving them), else what it is for.
  const shown: Result = result === 'none' || result === 'found' ? (position && located ? 'found' : 'none') : result;

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!text.trim()) return;
    event.preventDefault();
    setValue(text);
    apply(text, true);
  };

  // Handled here, so the Escape does not also close a marker popup open behind the box.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply(value, false);
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
          // Leaving the box applies a name only when it holds a position: a stray key before a
          // click on the map is not a name the user meant.
          onBlur={() => {
            if (value !== applied.current && recogniseScreenshotName(value)) apply(value, false);
          }}
        />
        <button type="button" className="topbar-button topbar-button--hint" onClick={onHelp}>
          {t('whereAmI.help')}
        </button>
      </div>
      <p id={hintId} className={`where-am-i__hint where-am-i__hint--${shown}`} role="status">
        {result === 'notRecognised' &&
          `${t(notRead.problem ? NAME_PROBLEM_TEXT[notRead.problem] : 'whereAmI.notRecognised')} ${t(notRead.reset ? 'whereAmI.markerReset' : 'whereAmI.nothingChanged')}`}
        {/* Said "X, Z, height" as the file name has them (X, height, Z): the spec's y is the game's Z. */}
        {shown === 'found' && position && t('whereAmI.found', { x: round2(position.x), y: round2(position.y), z: round2(position.z) })}
        {result === 'badLink' && t('whereAmI.badLink', { text: quoted(badPosLink?.kind === 'format' ? badPosLink.text : '') })}
        {result === 'offMap' &&
          offMap &&
          t('whereAmI.offMap', { x: shortNumber(offMap.x), y: shortNumber(offMap.y), map: t(`maps.${mapView.mapId ?? ''}`, { defaultValue: '' }) })}
        {shown === 'none' && t('whereAmI.intro')}
      </p>
      <LookArrowToggle />
    </form>
  );
}

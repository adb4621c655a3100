/**
 * Where the seeded quests' markers are on a map, read from the server (`/api/be/quests`,
 * `/api/be/markers/list`), for the tests of a quest's Show and the Quests page's map link
 * (e2e/quests.e2e.ts, e2e/quests-page.e2e.ts; docs/DECISIONS.md "Showing a quest's markers"):
 * a quest whose markers are all on one floor other than the map's default one, the quiet
 * "1 on Level 4" note its row shows, and the part of the window the top bar and the side panels
 * leave free.
 */
import type { Page } from 'playwright-core';
import { MAPS, type MapId } from '../../src/domain/maps';
import type { Quest } from '../../src/domain/quests';

export interface QuestPlaces {
  quest: Quest;
  /** Its markers on the map: uid and floor. */
  markers: Array<{ uid: string; level: number }>;
}

/** Every quest with markers on `mapId`, with those markers, in the quest list's order. */
export async function questPlaces(base: string, mapId: MapId): Promise<QuestPlaces[]> {
  const [quests, list] = await Promise.all([
    fetch(`${base}/api/be/quests`).then((r) => r.json() as Promise<{ quests: Quest[] }>),
    fetch(`${base}/api/be/markers/list?map=${mapId}`).then((r) => r.json() as Promise<{ markers: Array<{ uid: string; level: number; questUid?: string | null }> }>),
  ]);
  return quests.quests
    .map((quest) => ({ quest, markers: list.markers.filter((m) => m.questUid === quest.uid).map(({ uid, level }) => ({ uid, level })) }))
    .filter((q) => q.markers.length > 0);
}

/**
 * A quest whose markers on `mapId` are all on one floor, not the default one (where the page
 * opens): Show has to change the floor, and once it has, no marker is on another floor.
 */
export function questOnOtherFloor(places: QuestPlaces[], mapId: MapId): QuestPlaces & { floor: number } {
  const { defaultLevel } = MAPS[mapId];
  const found = places.find((q) => new Set(q.markers.map((m) => m.level)).size === 1 && q.markers[0].level !== defaultLevel);
  if (!found) throw new Error(`the seed has no quest whose ${mapId} markers are all on one floor other than level ${defaultLevel}`);
  return { ...found, floor: found.markers[0].level };
}

/** A floor's name in English as the quest list says it: "Level 4", "Main", "Underground". */
export function levelName(mapId: MapId, num: number): string {
  const level = MAPS[mapId].levels.find((l) => l.num === num);
  if (!level) throw new Error(`${mapId} has no level ${num}`);
  return /^Level \d+$/.test(level.name) ? `Level ${level.num}` : level.name;
}

/** The row's note of markers on other floors than `shown`: "2 on Level 3, 1 on Level 4" (most first, ties: lower floor first). */
export function elsewhereNote(mapId: MapId, markers: QuestPlaces['markers'], shown: number): string {
  const counts = new Map<number, number>();
  for (const { level } of markers) if (level !== shown) counts.set(level, (counts.get(level) ?? 0) + 1);
  return [...counts]
    .sort(([la, a], [lb, b]) => b - a || la - lb)
    .map(([level, count]) => `${count} on ${levelName(mapId, level)}`)
    .join(', ');
}

export interface PageRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The part of the window the map shows unhidden on a wide window: below the top bar, between
 * the left and right panels (columns down to the window's bottom).
 */
export function uncoveredPart(page: Page): Promise<PageRect> {
  return page.evaluate(() => {
    const bar = document.querySelector('.map-topbar')!.getBoundingClientRect();
    const panels = [...document.querySelectorAll('.map-panel')].map((el) => el.getBoundingClientRect()).filter((b) => b.width > 0 && b.height > 0);
    const middle = window.innerWidth / 2;
    return {
      left: Math.max(0, ...panels.filter((b) => b.left < middle).map((b) => b.right)),
      right: Math.min(window.innerWidth, ...panels.filter((b) => b.left >= middle).map((b) => b.left)),
      top: bar.bottom,
      bottom: window.innerHeight,
    };
  });
}

/** The page points of the markers of `uids` drawn on the map now (`window.__map.markers()`). */
export function markerPoints(page: Page, uids: readonly string[]): Promise<Array<{ uid: string; level: number; x: number; y: number }>> {
  return page.evaluate((wanted) => {
    const api = (window as unknown as {
      __map: { markers(): Array<{ uid: string; level: number; x: number; y: number }>; toScreen(x: number, y: number): { x: number; y: number } };
    }).__map;
    return api
      .markers()
      .filter((m) => wanted.includes(m.uid))
      .map((m) => ({ uid: m.uid, level: m.level, ...api.toScreen(m.x, m.y) }));
  }, [...uids]);
}

/** Whether every point is inside `rect`. */
export function allInside(points: ReadonlyArray<{ x: number; y: number }>, rect: PageRect): boolean {
  return points.every((p) => p.x >= rect.left && p.x <= rect.right && p.y >= rect.top && p.y <= rect.bottom);
}

export function level(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __map: { level(): number } }).__map.level());
}

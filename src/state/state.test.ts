import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filterQuery, filters, filtersKey, loadFilters, parseStoredFilters, setCategoryHidden, showAllCategories, toggleCategory, toggleSubCategory } from './filters';
import { closeMap, mapView, openMap, selectMarker, setLevel, stepLevelBy } from './mapView';
import { markers, markersFailed, markersLoaded, markersLoading } from './markers';
import { memoryStorage, setStorageBackend } from './storage';

let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
});
afterEach(() => setStorageBackend(null));

describe('filters', () => {
  it('parses stored filters and drops anything malformed or unknown', () => {
    expect(parseStoredFilters(null)).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
    expect(parseStoredFilters('{oops')).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
    expect(parseStoredFilters('[1,2]')).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
    expect(parseStoredFilters(JSON.stringify({ hiddenCategories: ['Loot', 'Nope', 3, 'Loot'], hiddenSubCategories: 'Safe' }))).toEqual({
      hiddenCategories: ['Loot'],
      hiddenSubCategories: [],
    });
  });

  it('is remembered per map in localStorage', () => {
    loadFilters('customs');
    toggleCategory('Loot');
    toggleSubCategory('PMC Spawn');
    expect(JSON.parse(storage.getItem(filtersKey('customs'))!)).toEqual({ hiddenCategories: ['Loot'], hiddenSubCategories: ['PMC Spawn'] });

    loadFilters('woods');
    expect(filters.hiddenCategories).toEqual([]);
    setCategoryHidden('Keys', true);

    loadFilters('customs');
    expect(filterQuery()).toEqual({ hiddenCategories: ['Loot'], hiddenSubCategories: ['PMC Spawn'] });
    toggleCategory('Loot');
    expect(filters.hiddenCategories).toEqual([]);
    loadFilters('woods');
    expect(filters.hiddenCategories).toEqual(['Keys']);
  });

  it('ignores unknown ids and clears with show all', () => {
    loadFilters('factory');
    setCategoryHidden('Unicorns', true);
    expect(filters.hiddenCategories).toEqual([]);
    setCategoryHidden('Spawns', true);
    setCategoryHidden('Spawns', true);
    expect(filters.hiddenCategories).toEqual(['Spawns']);
    showAllCategories();
    expect(filterQuery()).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
  });

  it('survives a storage that throws', () => {
    setStorageBackend({
      getItem: () => { throw new Error('blocked'); },
      setItem: () => { throw new Error('quota'); },
      removeItem: () => undefined,
    });
    loadFilters('lab');
    setCategoryHidden('Loot', true);
    expect(filters.hiddenCategories).toEqual(['Loot']);
  });
});

describe('mapView', () => {
  it('opens a map at its default level with nothing selected', () => {
    openMap('factory');
    selectMarker('m1');
    setLevel(3);
    openMap('customs');
    expect(mapView).toMatchObject({ mapId: 'customs', level: 1, ready: false, selectedUid: null });
  });

  it('accepts only levels of the open map and steps clamped', () => {
    openMap('factory');
    setLevel(7);
    expect(mapView.level).toBe(1);
    setLevel(-1);
    expect(mapView.level).toBe(-1);
    stepLevelBy(-1);
    expect(mapView.level).toBe(-1);
    stepLevelBy(1);
    stepLevelBy(1);
    stepLevelBy(1);
    stepLevelBy(1);
    expect(mapView.level).toBe(3);
    closeMap();
    stepLevelBy(1);
    expect(mapView.mapId).toBeNull();
  });
});

describe('markers slice', () => {
  it('goes loading → ready → error', () => {
    markersLoading();
    expect(markers.status).toBe('loading');
    markersLoaded({ count: 3, counts: { Safe: 3 }, issues: 1 });
    expect(markers).toMatchObject({ status: 'ready', count: 3, counts: { Safe: 3 }, issues: 1, error: null });
    markersFailed('down');
    expect(markers).toMatchObject({ status: 'error', error: 'down' });
    markersLoading();
    expect(markers).toMatchObject({ status: 'loading', count: 0, error: null });
  });
});

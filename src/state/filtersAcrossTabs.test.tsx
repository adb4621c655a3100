/**
 * The category filters of one map in two tabs: the other tab's write reaches this one through
 * the window's `storage` event (jsdom: real localStorage, the event dispatched as a browser would),
 * and a change here is made to what is stored now, never to this tab's older copy.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filters, filtersKey, loadFilters, setCategoryHidden, showAllCategories, type StoredFilters } from './filters';

const key = filtersKey('customs');

/** What the browser does in this tab when another tab writes `map:filters:{map}`. */
function otherTabWrites(value: Partial<StoredFilters>, to = key): void {
  const text = JSON.stringify({ hiddenCategories: [], hiddenSubCategories: [], ...value });
  const old = localStorage.getItem(to);
  localStorage.setItem(to, text);
  window.dispatchEvent(new StorageEvent('storage', { key: to, oldValue: old, newValue: text, storageArea: localStorage }));
}

const stored = () => JSON.parse(localStorage.getItem(key) ?? 'null') as StoredFilters | null;

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('filters across tabs', () => {
  it("this tab shows the other tab's hidden categories of the same map at once", () => {
    loadFilters('customs');
    otherTabWrites({ hiddenCategories: ['Loot'], hiddenSubCategories: ['Safe'] });
    expect(filters.hiddenCategories).toEqual(['Loot']);
    expect(filters.hiddenSubCategories).toEqual(['Safe']);
  });

  it('Loot hidden in one tab and Keys in the other: both stay hidden (the probe saw only Keys)', () => {
    loadFilters('customs');
    // The other tab hides Loot; this tab has not heard of it yet (no event) and hides Keys.
    localStorage.setItem(key, JSON.stringify({ hiddenCategories: ['Loot'], hiddenSubCategories: [] }));
    setCategoryHidden('Keys', true);
    expect(stored()).toEqual({ hiddenCategories: ['Loot', 'Keys'], hiddenSubCategories: [] });
    expect(filters.hiddenCategories).toEqual(['Loot', 'Keys']);
  });

  it("another map's filters change nothing here; show all clears them for every tab", () => {
    loadFilters('customs');
    setCategoryHidden('Loot', true);
    otherTabWrites({ hiddenCategories: ['Keys'] }, filtersKey('woods'));
    expect(filters.hiddenCategories).toEqual(['Loot']);
    showAllCategories();
    expect(stored()).toEqual({ hiddenCategories: [], hiddenSubCategories: [] });
  });
});

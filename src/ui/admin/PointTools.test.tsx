import { i18n } from '../../i18n';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { MAPS } from '../../domain/maps';
import { layout } from '../../state/layout';
import { addRecordedPoint, points, resetPoints } from '../../state/points';
import { resetSession, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { PointTools } from './PointTools';

const factory = MAPS.factory;
const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };
let storage: ReturnType<typeof memoryStorage>;

beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetPoints();
  layout.pointTools = true;
});
afterEach(() => {
  resetSession();
  resetPoints();
  layout.pointTools = false;
  setStorageBackend(null);
  vi.restoreAllMocks();
});

const region = () => screen.getByRole('region', { name: 'Point history' });

describe('PointTools', () => {
  it('renders nothing for a visitor or a pro user, even when toggled on', () => {
    const { container, rerender } = render(<PointTools map={factory} />);
    expect(container).toBeEmptyDOMElement();
    act(() => setSessionUser({ ...admin, admin: false, pro: true }));
    rerender(<PointTools map={factory} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the spec\'s buttons to an admin only while layout.pointTools is on', async () => {
    setSessionUser(admin);
    render(<PointTools map={factory} />);
    const names = within(region()).getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['Rec PointsHistory', 'Toggle points', 'Toggle coords', 'Clear points', 'Download SVG']);
    act(() => void (layout.pointTools = false));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Point history' })).toBeNull());
  });

  it('loads the map\'s saved points on mount and stops recording on unmount', async () => {
    storage.setItem('factorypoints', JSON.stringify([{ x: 1, y: 2 }]));
    setSessionUser(admin);
    const { unmount } = render(<PointTools map={factory} />);
    expect(points.mapId).toBe('factory');
    await waitFor(() => expect(within(region()).getByRole('status')).toHaveTextContent('1 point'));
    await userEvent.click(screen.getByRole('button', { name: 'Rec PointsHistory' }));
    expect(points.recording).toBe(true);
    unmount();
    expect(points.recording).toBe(false);
    expect(points.mapId).toBeNull();
  });

  it('switches recording, points and coordinates, each button pressed while on', async () => {
    setSessionUser(admin);
    render(<PointTools map={factory} />);
    // (Rec last: starting to record also shows the points.)
    for (const [name, field] of [
      ['Toggle points', 'shown'],
      ['Toggle coords', 'coordsShown'],
      ['Rec PointsHistory', 'recording'],
    ] as const) {
      const button = screen.getByRole('button', { name });
      expect(button).toHaveAttribute('aria-pressed', 'false');
      await userEvent.click(button);
      expect(button).toHaveAttribute('aria-pressed', 'true');
      expect(points[field]).toBe(true);
      await userEvent.click(button);
      expect(points[field]).toBe(false);
    }
  });

  it('starting to record shows the points (recorded points are never out of sight); Toggle points still hides and shows them', async () => {
    setSessionUser(admin);
    render(<PointTools map={factory} />);
    const rec = screen.getByRole('button', { name: 'Rec PointsHistory' });
    const toggle = screen.getByRole('button', { name: 'Toggle points' });
    expect(points.shown).toBe(false);
    await userEvent.click(rec);
    expect(points).toMatchObject({ recording: true, shown: true });
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    act(() => {
      addRecordedPoint(1, 1);
      addRecordedPoint(2, 2);
      addRecordedPoint(3, 3);
    });
    await waitFor(() => expect(within(region()).getByRole('status')).toHaveTextContent('3 points'));
    await userEvent.click(toggle);
    expect(points).toMatchObject({ recording: true, shown: false });
    await userEvent.click(toggle);
    expect(points.shown).toBe(true);
    // Stopping leaves them as they are; hidden then, starting again shows them again.
    await userEvent.click(toggle);
    await userEvent.click(rec);
    expect(points).toMatchObject({ recording: false, shown: false });
    await userEvent.click(rec);
    expect(points).toMatchObject({ recording: true, shown: true });
  });

  it('on a phone the buttons are one row that scrolls sideways (PointTools.css)', () => {
    // jsdom applies no stylesheet: read the rule.
    const css = readFileSync(join(__dirname, 'PointTools.css'), 'utf8');
    expect(css).toMatch(/@media \(max-width: 720px\)/);
    expect(css).toMatch(/flex-wrap: nowrap/);
    expect(css).toMatch(/overflow-x: auto/);
  });

  it('clears the points only after "Clear points?" is answered OK', async () => {
    setSessionUser(admin);
    render(<PointTools map={factory} />);
    await userEvent.click(screen.getByRole('button', { name: 'Rec PointsHistory' }));
    act(() => void addRecordedPoint(10, 20));
    expect(storage.getItem('factorypoints')).not.toBeNull();

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await userEvent.click(screen.getByRole('button', { name: 'Clear points' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm).toHaveBeenCalledWith('Clear points?');
    expect(points.list).toEqual([{ x: 10, y: 20 }]);

    confirm.mockReturnValue(true);
    await userEvent.click(screen.getByRole('button', { name: 'Clear points' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenLastCalledWith('Clear points?');
    expect(points.list).toEqual([]);
    expect(storage.getItem('factorypoints')).toBeNull();
    await waitFor(() => expect(within(region()).getByRole('status')).toHaveTextContent('0 points'));
  });

  it('asks "Очистить точки?" in a Russian page', async () => {
    setSessionUser(admin);
    await act(() => i18n.changeLanguage('ru'));
    try {
      render(<PointTools map={factory} />);
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
      await userEvent.click(screen.getByRole('button', { name: 'Очистить точки' }));
      expect(confirm).toHaveBeenCalledWith('Очистить точки?');
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });

  it('downloads the points as `${mapId}-points.svg`', async () => {
    setSessionUser(admin);
    render(<PointTools map={factory} />);
    await userEvent.click(screen.getByRole('button', { name: 'Rec PointsHistory' }));
    act(() => {
      addRecordedPoint(100, 200);
      addRecordedPoint(300, 400);
    });
    const blobs: Blob[] = [];
    const create = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:points';
    });
    const revoke = vi.fn();
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
    onTestFinished(() => void Object.assign(URL, original));
    const clicked: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.getAttribute('href') ?? '' });
    });

    await userEvent.click(screen.getByRole('button', { name: 'Download SVG' }));
    expect(clicked).toEqual([{ download: 'factory-points.svg', href: 'blob:points' }]);
    expect(create).toHaveBeenCalledTimes(1);
    expect(blobs[0].type).toBe('image/svg+xml');
    const svg = await blobs[0].text();
    expect(svg).toContain(`viewBox="0 0 ${factory.size.width} ${factory.size.height}"`);
    expect(svg).toContain('<polyline points="100,200 300,400"');
    // The link does not stay in the page; the URL is released afterwards.
    expect(document.querySelector('a[download]')).toBeNull();
    await vi.waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:points'));
  });
});

describe('PointTools: the downloaded SVG\'s title', () => {
  /** The SVG the Download button saves (the link's click is caught). */
  async function downloaded(button: string): Promise<string> {
    const blobs: Blob[] = [];
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:points'), revokeObjectURL: () => undefined });
    onTestFinished(() => void Object.assign(URL, original));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await userEvent.click(screen.getByRole('button', { name: button }));
    return blobs[0].text();
  }

  it('is the map\'s name in the page\'s language', async () => {
    setSessionUser(admin);
    act(() => addRecordedPoint(100, 200));
    await act(() => i18n.changeLanguage('ru'));
    onTestFinished(async () => {
      await i18n.changeLanguage('en');
    });
    render(<PointTools map={MAPS.customs} />);
    const svg = await downloaded('Скачать SVG');
    expect(svg).toContain('<title>Таможня</title>');
    expect(svg).not.toContain('Customs');
  });

  it('is the English name on an English page', async () => {
    setSessionUser(admin);
    render(<PointTools map={MAPS.customs} />);
    expect(await downloaded('Download SVG')).toContain('<title>Customs</title>');
  });
});

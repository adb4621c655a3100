import '../../i18n';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { MAPS } from '../../domain/maps';
import * as editorModule from '../../state/editor';
import { editor, resetEditor, setMarkerType } from '../../state/editor';
import { layout } from '../../state/layout';
import { resetPoints } from '../../state/points';
import { resetSession, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import type { DrawnShape } from '../../domain/shapes';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink } from '../../editor/testing/fakes';
import { AdminDock } from './AdminDock';
import { ToolsPanel } from './ToolsPanel';

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };


beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEditor();
  setMarkerType('Loot', 'Safe');
});
afterEach(async () => {
  resetSession();
  resetPoints();
  layout.pointTools = false;
  resetEditor();
  setStorageBackend(null);
  vi.restoreAllMocks();
  await setLanguage('en');
});

const panel = () => screen.getByRole('region', { name: 'Editor tools' });
const drawGroup = () => within(panel()).getByRole('group', { name: 'Draw' });

describe('ToolsPanel', () => {
  it('renders nothing for a visitor or a pro user (nor does the admin dock)', () => {
    const { container, rerender } = render(
      <>
        <ToolsPanel />
        <AdminDock map={MAPS.factory} camera={{ x: 1, y: 2, zoom: 1 }} />
      </>,
    );
    expect(container).toBeEmptyDOMElement();
    act(() => setSessionUser({ ...admin, admin: false, pro: true }));
    rerender(
      <>
        <ToolsPanel />
        <AdminDock map={MAPS.factory} camera={{ x: 1, y: 2, zoom: 1 }} />
      </>,
    );
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers the eight draw tools, Edit, Move, Undo and Redo, each with a title', () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const names = within(drawGroup()).getAllByRole('button').map((b) => b.getAttribute('aria-label'));
    expect(names).toEqual(['Pen', 'Line', 'Arrow', 'Rectangle', 'Circle', 'Polygon', 'Text', 'Marker']);
    for (const name of ['Edit', 'Move', 'Undo', 'Redo']) expect(within(panel()).getByRole('button', { name })).toHaveAttribute('title');
    expect(within(panel()).getByRole('button', { name: 'Move' })).toHaveAttribute('title', expect.stringContaining('(M'));
    expect(within(panel()).getByRole('button', { name: 'Move' }).title).toContain('Shift: slow move ÷10');
    expect(within(panel()).getByRole('button', { name: 'Undo' })).toHaveAttribute('title', 'Undo (Ctrl+Z)');
    expect(within(panel()).getByRole('button', { name: 'Redo' })).toHaveAttribute('title', 'Redo (Ctrl+Shift+Z)');
    expect(within(panel()).getByRole('button', { name: 'Marker' }).title).toContain('L: repeat last marker tool');
    expect(panel()).toHaveTextContent('L: repeat last marker tool');
    expect(panel()).toHaveTextContent('Shift: slow move ÷10');
    // Each draw tool's number key, in its title and for assistive technology.
    within(drawGroup())
      .getAllByRole('button')
      .forEach((b, i) => {
        expect(b).toHaveAttribute('aria-keyshortcuts', String(i + 1));
        expect(b.title).toContain(`(${i + 1})`);
      });
    expect(within(panel()).getByRole('button', { name: 'Edit' })).toHaveAttribute('aria-keyshortcuts', 'E');
  });

  it('lists the keyboard shortcuts, folded until asked for', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const summary = within(panel()).getByText('Keyboard shortcuts');
    const list = summary.closest('details')!;
    expect(list.open).toBe(false);
    await userEvent.click(summary);
    expect(list.open).toBe(true);
    const rows = [...list.querySelectorAll('dt')].map((dt) => `${dt.textContent} → ${dt.nextElementSibling?.textContent}`);
    expect(rows).toEqual([
      '1…8 → draw tools, in the order above (the same number again: pan)',
      'E → edit shapes (again: pan)',
      'M → move (again: pan)',
      'L → the marker tool again',
      'Shift → hold while moving: slow move ÷10',
      'Enter → edit the open marker',
      'Delete → delete the open marker (asks first)',
      'Ctrl+C → copy the open marker',
      'Ctrl+V → place a copy under the pointer (again and again)',
      "Ctrl+Enter → in a marker's edit form: Save (⌘+Enter on a Mac)",
      'Ctrl+Z → undo',
      'Ctrl+Shift+Z → redo',
      'Esc → close the popup, back to pan',
      '←↑→↓ → on the focused map: move it; while Enter holds, the cross-hair',
      'Enter → on the focused map: click at the cross-hair (a dragging tool: hold, then let go)',
    ]);
  });

  it('selects a draw tool (pressed), another replaces it, the active one again goes back to pan', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const rect = within(drawGroup()).getByRole('button', { name: 'Rectangle' });
    const circle = within(drawGroup()).getByRole('button', { name: 'Circle' });
    expect(rect).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(rect);
    expect(editor).toMatchObject({ mode: 'draw', tool: 'rect' });
    await waitFor(() => expect(rect).toHaveAttribute('aria-pressed', 'true'));

    await userEvent.click(circle);
    expect(editor).toMatchObject({ mode: 'draw', tool: 'circle' });
    await waitFor(() => expect(circle).toHaveAttribute('aria-pressed', 'true'));
    expect(rect).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(circle);
    expect(editor).toMatchObject({ mode: 'pan', tool: null });
    await waitFor(() => expect(circle).toHaveAttribute('aria-pressed', 'false'));
    expect(within(drawGroup()).queryAllByRole('button', { pressed: true })).toEqual([]);
  });

  it('is usable from the keyboard alone', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const user = userEvent.setup();
    within(drawGroup()).getByRole('button', { name: 'Pen' }).focus();
    await user.keyboard('{Enter}');
    expect(editor).toMatchObject({ mode: 'draw', tool: 'pen' });
    await user.tab();
    expect(within(drawGroup()).getByRole('button', { name: 'Line' })).toHaveFocus();
    await user.keyboard(' ');
    expect(editor.tool).toBe('line');
  });

  it('toggles Edit (pan ⇄ edit, the tool cleared) and Move (move, again pan)', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const edit = within(panel()).getByRole('button', { name: 'Edit' });
    const move = within(panel()).getByRole('button', { name: 'Move' });

    await userEvent.click(within(drawGroup()).getByRole('button', { name: 'Pen' }));
    await userEvent.click(edit);
    expect(editor).toMatchObject({ mode: 'edit', tool: null });
    await waitFor(() => expect(edit).toHaveAttribute('aria-pressed', 'true'));
    expect(within(drawGroup()).queryAllByRole('button', { pressed: true })).toEqual([]);
    await userEvent.click(edit);
    expect(editor.mode).toBe('pan');
    await waitFor(() => expect(edit).toHaveAttribute('aria-pressed', 'false'));

    await userEvent.click(move);
    expect(editor.mode).toBe('move');
    await waitFor(() => expect(move).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(move);
    expect(editor.mode).toBe('pan');
    await waitFor(() => expect(move).toHaveAttribute('aria-pressed', 'false'));
  });

  it('enables Undo and Redo from canUndo / canRedo and calls them', async () => {
    setSessionUser(admin);
    const undo = vi.spyOn(editorModule, 'undo').mockResolvedValue(undefined);
    const redo = vi.spyOn(editorModule, 'redo').mockResolvedValue(undefined);
    render(<ToolsPanel />);
    const undoButton = within(panel()).getByRole('button', { name: 'Undo' });
    const redoButton = within(panel()).getByRole('button', { name: 'Redo' });
    expect(undoButton).toBeDisabled();
    expect(redoButton).toBeDisabled();
    await userEvent.click(undoButton);
    expect(undo).not.toHaveBeenCalled();

    act(() => void (editor.canUndo = true));
    await waitFor(() => expect(undoButton).toBeEnabled());
    expect(redoButton).toBeDisabled();
    await userEvent.click(undoButton);
    expect(undo).toHaveBeenCalledTimes(1);

    act(() => {
      editor.canUndo = false;
      editor.canRedo = true;
    });
    await waitFor(() => expect(redoButton).toBeEnabled());
    expect(undoButton).toBeDisabled();
    await userEvent.click(redoButton);
    expect(redo).toHaveBeenCalledTimes(1);
  });

  it('keeps the keyboard on Undo; once the last step is undone (Undo disabled) it goes to Redo, not to the page or the map, and back', async () => {
    setSessionUser(admin);
    vi.spyOn(editorModule, 'undo').mockResolvedValue(undefined);
    vi.spyOn(editorModule, 'redo').mockResolvedValue(undefined);
    act(() => void (editor.canUndo = true));
    render(<ToolsPanel />);
    const undoButton = within(panel()).getByRole('button', { name: 'Undo' });
    const redoButton = within(panel()).getByRole('button', { name: 'Redo' });
    await waitFor(() => expect(undoButton).toBeEnabled());
    undoButton.focus();
    await userEvent.keyboard('{Enter}');
    // Steps left: it stays.
    act(() => void (editor.canRedo = true));
    await waitFor(() => expect(redoButton).toBeEnabled());
    expect(undoButton).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    // The last one undone.
    act(() => void (editor.canUndo = false));
    await waitFor(() => expect(undoButton).toBeDisabled());
    expect(redoButton).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    act(() => {
      editor.canUndo = true;
      editor.canRedo = false;
    });
    await waitFor(() => expect(redoButton).toBeDisabled());
    expect(undoButton).toHaveFocus();
    // Taken elsewhere meanwhile: a later change of the buttons leaves the focus alone.
    await userEvent.keyboard('{Enter}');
    act(() => void (editor.canRedo = true));
    await waitFor(() => expect(redoButton).toBeEnabled());
    await userEvent.tab();
    await userEvent.tab();
    const elsewhere = document.activeElement;
    expect([undoButton, redoButton, document.body]).not.toContain(elsewhere);
    act(() => void (editor.canUndo = false));
    await waitFor(() => expect(undoButton).toBeDisabled());
    expect(document.activeElement).toBe(elsewhere);
  });

  it('picks the marker type: a category (its first subcategory at once), then a subcategory with its icon', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const current = within(panel()).getByRole('button', { name: /^Marker type: Loot › Safe$/ });
    expect(current).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(current);
    expect(current).toHaveAttribute('aria-expanded', 'true');
    const picker = within(panel()).getByRole('group', { name: 'Marker type' });
    const subs = within(picker).getByRole('group', { name: 'Subcategory' });
    expect(within(subs).getByRole('button', { name: 'Safe' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(subs).getAllByRole('button')).toHaveLength(20);

    await userEvent.selectOptions(within(picker).getByRole('combobox', { name: 'Category' }), 'Spawns');
    expect(editor).toMatchObject({ markerCategory: 'Spawns', markerSubCategory: 'PMC Spawn' });
    const scav = await within(subs).findByRole('button', { name: 'Scav Spawn' });
    expect(within(subs).getAllByRole('button')).toHaveLength(7);
    // Each subcategory shows its icon, as the category panel does.
    expect(scav.querySelector<HTMLElement>('.sub-category-icon')?.dataset.icon).toBe('Scav Spawn');

    await userEvent.click(scav);
    expect(editor).toMatchObject({ markerCategory: 'Spawns', markerSubCategory: 'Scav Spawn' });
    expect(screen.queryByRole('group', { name: 'Marker type' })).toBeNull();
    const after = await within(panel()).findByRole('button', { name: 'Marker type: Spawns › Scav Spawn' });
    expect(after).toHaveFocus();
    expect(after.querySelector<HTMLElement>('.sub-category-icon')?.dataset.icon).toBe('Scav Spawn');
  });

  it('closes the marker type picker with Escape without it reaching the page', async () => {
    setSessionUser(admin);
    const onKey = vi.fn();
    document.addEventListener('keydown', onKey);
    try {
      render(<ToolsPanel />);
      await userEvent.click(within(panel()).getByRole('button', { name: /^Marker type:/ }));
      within(panel()).getByRole('combobox', { name: 'Category' }).focus();
      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('group', { name: 'Marker type' })).toBeNull();
      expect(onKey).not.toHaveBeenCalledWith(expect.objectContaining({ key: 'Escape' }));
    } finally {
      document.removeEventListener('keydown', onKey);
    }
  });

  it('closes the marker type picker with Escape on its button (Enter opened it, the focus stays there), the map not hearing it', async () => {
    setSessionUser(admin);
    // The map's keys (engine/input.ts, wireEditor.ts) listen on the window: Escape there resets the tool to pan.
    const onKey = vi.fn();
    window.addEventListener('keydown', onKey);
    try {
      render(<ToolsPanel />);
      const current = within(panel()).getByRole('button', { name: /^Marker type:/ });
      current.focus();
      await userEvent.keyboard('{Enter}');
      expect(current).toHaveAttribute('aria-expanded', 'true');
      expect(current).toHaveFocus();
      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('group', { name: 'Marker type' })).toBeNull();
      expect(current).toHaveAttribute('aria-expanded', 'false');
      expect(current).toHaveFocus();
      expect(onKey).not.toHaveBeenCalledWith(expect.objectContaining({ key: 'Escape' }));
      // Closed, Escape on the button is the map's again.
      await userEvent.keyboard('{Escape}');
      expect(onKey).toHaveBeenCalledWith(expect.objectContaining({ key: 'Escape' }));
    } finally {
      window.removeEventListener('keydown', onKey);
    }
  });

  it('closes the marker type picker from a subcategory button too, and on a press outside it', async () => {
    setSessionUser(admin);
    render(
      <>
        <ToolsPanel />
        <p>Elsewhere</p>
      </>,
    );
    const current = within(panel()).getByRole('button', { name: /^Marker type:/ });
    await userEvent.click(current);
    within(within(panel()).getByRole('group', { name: 'Subcategory' })).getByRole('button', { name: 'Safe' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Marker type' })).toBeNull();
    expect(current).toHaveFocus();

    await userEvent.click(current);
    // A press inside keeps it open.
    await userEvent.click(within(panel()).getByRole('combobox', { name: 'Category' }));
    expect(screen.getByRole('group', { name: 'Marker type' })).toBeInTheDocument();
    await userEvent.click(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('group', { name: 'Marker type' })).toBeNull();
    expect(current).toHaveAttribute('aria-expanded', 'false');
  });

  it('switches "Open new markers in edit mode"', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const box = within(panel()).getByRole('checkbox', { name: 'Edit new: open new markers in edit mode' });
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    expect(editor.editOnOpen).toBe(true);
    await waitFor(() => expect(box).toBeChecked());
    await userEvent.click(box);
    expect(editor.editOnOpen).toBe(false);
  });

  it('"Point history" shows and hides the point-history buttons, as Alt-click on the top bar does (no Alt on a phone)', async () => {
    setSessionUser(admin);
    render(<AdminDock map={MAPS.factory} camera={null} />);
    const box = within(panel()).getByRole('checkbox', { name: 'Points: point history' });
    expect(box).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Rec PointsHistory' })).toBeNull();
    await userEvent.click(box);
    expect(layout.pointTools).toBe(true);
    expect(await screen.findByRole('button', { name: 'Rec PointsHistory' })).toBeInTheDocument();
    await waitFor(() => expect(box).toBeChecked());
    await userEvent.click(box);
    expect(layout.pointTools).toBe(false);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Rec PointsHistory' })).toBeNull());
  });

  it('names each option with the words of both labels, so the one shown (whole, or a phone\'s short one: admin.css) is in its name (WCAG 2.5.3); neither is read twice', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    for (const [text, short] of [['Open new markers in edit mode', 'Edit new'], ['Point history', 'Points']]) {
      const box = within(panel()).getByRole('checkbox', { name: new RegExp(`^${short}: ${text}$`, 'i') });
      const name = box.getAttribute('aria-label')!.toLowerCase();
      const label = box.closest('label')!;
      const whole = label.querySelector('.admin-tools__check-text')!;
      const shown = label.querySelector('.admin-tools__check-short')!;
      expect(whole).toHaveTextContent(text);
      expect(shown).toHaveTextContent(short);
      // Label in name: each visible label's words, as they are, in the name.
      expect(name).toContain(whole.textContent!.toLowerCase());
      expect(name.startsWith(shown.textContent!.toLowerCase())).toBe(true);
      expect(whole).toHaveAttribute('aria-hidden', 'true');
      expect(shown).toHaveAttribute('aria-hidden', 'true');
    }
    // On a phone the open panel's toggle and Edit / Move keep their names with their words hidden.
    expect(within(panel()).getByRole('button', { name: 'Hide editor tools' }).querySelector('.admin-tools__toggle-text')).toHaveTextContent('Hide editor tools');
    for (const name of ['Edit', 'Move']) expect(within(panel()).getByRole('button', { name }).querySelector('.admin-button__text')).toHaveTextContent(name);
  });

  it('shows the live-updates state', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    expect(panel()).toHaveTextContent('Live off');
    act(() => void (editor.live = 'connected'));
    await waitFor(() => expect(panel()).toHaveTextContent(/Live(?! off)/));
    act(() => void (editor.live = 'reconnecting'));
    await waitFor(() => expect(panel()).toHaveTextContent('Reconnecting…'));
  });

  it('collapses to its toggle and opens again', async () => {
    setSessionUser(admin);
    render(<ToolsPanel />);
    const toggle = within(panel()).getByRole('button', { name: 'Hide editor tools' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(toggle);
    expect(within(panel()).queryByRole('group', { name: 'Draw' })).toBeNull();
    const show = within(panel()).getByRole('button', { name: 'Show editor tools' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(show);
    expect(drawGroup()).toBeInTheDocument();
  });

  it('starts collapsed on a narrow screen', () => {
    setSessionUser(admin);
    const matchMedia = vi.fn((query: string) => ({ matches: query === '(max-width: 720px)', media: query }) as MediaQueryList);
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      render(<ToolsPanel />);
      expect(within(panel()).getByRole('button', { name: 'Show editor tools' })).toHaveAttribute('aria-expanded', 'false');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('names the selected shape (saved on Enter as one undo step) and deletes it', async () => {
    const user = userEvent.setup();
    setSessionUser(admin);
    editorModule.loadShapes('customs');
    editorModule.addShape({ id: 't1', type: 'text', geometry: { x: 10, y: 20 }, name: 'Text' });
    render(<ToolsPanel />);
    expect(within(panel()).queryByRole('group', { name: 'Selected shape' })).toBeNull();
    act(() => editorModule.selectShape('t1'));
    const row = await within(panel()).findByRole('group', { name: 'Selected shape' });
    const field = within(row).getByRole('textbox', { name: 'Text' });
    await user.clear(field);
    await user.type(field, 'Bunker door{Enter}');
    expect(editor.shapes[0].name).toBe('Bunker door');
    await user.click(within(row).getByRole('button', { name: 'Delete shape' }));
    expect(editor.shapes).toEqual([]);
    await waitFor(() => expect(within(panel()).queryByRole('group', { name: 'Selected shape' })).toBeNull());
  });

  describe('a text shape just placed (the Text tool: select it, its label asked for)', () => {
    const rect: DrawnShape = { id: 'r1', type: 'rect', geometry: { x: 0, y: 0, x1: 50, y1: 50 }, name: '' };
    const text: DrawnShape = { id: 't1', type: 'text', geometry: { x: 10, y: 20 }, name: 'Text' };
    /** What the Text tool does through the wiring's host: add it, select it with its label asked for. */
    const placeText = () =>
      act(() => {
        editorModule.addShape(text);
        editorModule.selectShape(text.id, { editLabel: true });
      });
    const row = () => within(panel()).getByRole('group', { name: 'Selected shape' });

    function bound() {
      const server = fakeServer();
      const commands = createEditorCommands({ api: server.api, sink: fakeSink([]).sink, mapId: 'customs' });
      editorModule.bindEditor(commands);
      editorModule.loadShapes('customs');
    }

    it('the panel shows the new text, not the rectangle selected before; its label has the keyboard, "Text" selected', async () => {
      const user = userEvent.setup();
      setSessionUser(admin);
      bound();
      editorModule.addShape(rect);
      editorModule.selectShape('r1');
      render(<ToolsPanel />);
      expect(within(row()).getByText('Rectangle')).toBeInTheDocument();
      act(() => editorModule.selectTool('text'));
      placeText();
      await waitFor(() => expect(within(row()).getByRole('textbox', { name: 'Text' })).toHaveFocus());
      const field = within(row()).getByRole('textbox', { name: 'Text' }) as HTMLInputElement;
      expect(within(row()).queryByText('Rectangle')).toBeNull();
      expect([field.value, field.selectionStart, field.selectionEnd]).toEqual(['Text', 0, 4]);
      expect(editor.labelFocus).toBeNull();
      // Typing replaces "Text"; Enter saves it and gives the keyboard back to the map; the tool stays.
      await user.keyboard('Exfil here{Enter}');
      expect(editor.shapes.map((s) => [s.id, s.name])).toEqual([
        ['r1', ''],
        ['t1', 'Exfil here'],
      ]);
      expect(field).not.toHaveFocus();
      expect(editor.selectedShape).toBe('t1');
      expect(editor.path).toBe('draw.text.idle');
      // One undo step for the label, one for the placement.
      await editorModule.undo();
      expect(editor.shapes.find((s) => s.id === 't1')?.name).toBe('Text');
      await waitFor(() => expect(within(row()).getByRole('textbox', { name: 'Text' })).toHaveValue('Text'));
      await editorModule.undo();
      expect(editor.shapes.map((s) => s.id)).toEqual(['r1']);
      await editorModule.redo();
      await editorModule.redo();
      expect(editor.shapes.map((s) => [s.id, s.name])).toEqual([
        ['r1', ''],
        ['t1', 'Exfil here'],
      ]);
    });

    it('Escape in the label saves what was typed, then does the map\'s Escape: pan, nothing selected', async () => {
      const user = userEvent.setup();
      setSessionUser(admin);
      bound();
      render(<ToolsPanel />);
      act(() => editorModule.selectTool('text'));
      placeText();
      await waitFor(() => expect(within(row()).getByRole('textbox', { name: 'Text' })).toHaveFocus());
      await user.keyboard('hello{Escape}');
      expect(editor.shapes.map((s) => s.name)).toEqual(['hello']);
      expect(editor).toMatchObject({ mode: 'pan', tool: null, selectedShape: null });
      await waitFor(() => expect(within(panel()).queryByRole('group', { name: 'Selected shape' })).toBeNull());
    });

    it("a tap's late mouse press takes the keyboard to the map: the tap's click gives it back (a mouse's click does not)", async () => {
      setSessionUser(admin);
      bound();
      document.body.insertAdjacentHTML('beforeend', '<div id="map-host" tabindex="-1"><canvas></canvas></div>');
      const host = document.getElementById('map-host')!;
      try {
        render(<ToolsPanel />);
        act(() => editorModule.selectTool('text'));
        const click = (pointerType?: string) => {
          const event = new MouseEvent('click', { bubbles: true });
          if (pointerType) Object.defineProperty(event, 'pointerType', { value: pointerType });
          host.querySelector('canvas')!.dispatchEvent(event);
        };
        placeText();
        const field = await within(panel()).findByRole('textbox', { name: 'Text' });
        await waitFor(() => expect(field).toHaveFocus());
        act(() => host.focus());
        click('touch');
        expect(field).toHaveFocus();
        expect([(field as HTMLInputElement).selectionStart, (field as HTMLInputElement).selectionEnd]).toEqual([0, 4]);
        // Only once: a later press on the map keeps the keyboard there.
        act(() => host.focus());
        click('touch');
        expect(host).toHaveFocus();

        act(() => editorModule.selectShape(null));
        placeText();
        await waitFor(() => expect(within(panel()).getByRole('textbox', { name: 'Text' })).toHaveFocus());
        act(() => host.focus());
        click('mouse');
        expect(host).toHaveFocus();
      } finally {
        host.remove();
      }
    });

    it('selecting a shape in edit mode does not take the keyboard', async () => {
      setSessionUser(admin);
      bound();
      editorModule.addShape(text);
      render(<ToolsPanel />);
      act(() => editorModule.selectShape('t1'));
      const field = await within(panel()).findByRole('textbox', { name: 'Text' });
      expect(field).not.toHaveFocus();
    });
  });

  it('says when a copy is armed and cancels it', async () => {
    const user = userEvent.setup();
    setSessionUser(admin);
    render(<ToolsPanel />);
    expect(within(panel()).queryByRole('status')).toBeNull();
    act(() => editorModule.startCopy('m1'));
    const status = await within(panel()).findByRole('status');
    expect(status.textContent).toMatch(/click the map to place it/);
    await user.click(within(status).getByRole('button', { name: 'Cancel copy' }));
    expect(editor.copying).toBeNull();
  });

  it('speaks Russian', async () => {
    setSessionUser(admin);
    await setLanguage('ru');
    render(<ToolsPanel />);
    const region = screen.getByRole('region', { name: 'Инструменты редактора' });
    expect(within(region).getByRole('button', { name: 'Прямоугольник' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Отменить' })).toHaveAttribute('title', 'Отменить (Ctrl+Z)');
    // The phone's short labels (admin.compact), the checkboxes named with both labels' words.
    const edit = within(region).getByRole('checkbox', { name: 'Правка новых: открывать новые метки в режиме правки' }).closest('label')!;
    expect(edit.querySelector('.admin-tools__check-short')).toHaveTextContent('Правка новых');
    expect(edit.querySelector('.admin-tools__check-text')).toHaveTextContent('Открывать новые метки в режиме правки');
    const history = within(region).getByRole('checkbox', { name: 'Точки: история точек' }).closest('label')!;
    expect(history.querySelector('.admin-tools__check-short')).toHaveTextContent('Точки');
    // The editor says «метка» as the rest of the site does, never «маркер».
    expect(within(region).getByRole('button', { name: 'Метка' })).toBeInTheDocument();
    expect(region.textContent).not.toMatch(/маркер/i);
    for (const element of region.querySelectorAll('[title], [aria-label]')) {
      expect(`${element.getAttribute('title') ?? ''} ${element.getAttribute('aria-label') ?? ''}`).not.toMatch(/маркер/i);
    }
  });
});

import '../../i18n';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shapesStorageKey, type DrawnShape } from '../../domain/shapes';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink } from '../../editor/testing/fakes';
import { addShape, bindEditor, editor, loadShapes, resetEditor, selectShape, setPath, undo } from '../../state/editor';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { isDrawingPath, SelectedShape } from './SelectedShape';

let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetEditor();
  bindEditor(createEditorCommands({ api: fakeServer().api, sink: fakeSink([]).sink, mapId: 'customs' }));
  loadShapes('customs');
});
afterEach(() => {
  resetEditor();
  setStorageBackend(null);
});

const text: DrawnShape = { id: 't1', type: 'text', geometry: { x: 10, y: 20 }, name: 'Text' };
const rect: DrawnShape = { id: 'r1', type: 'rect', geometry: { x: 0, y: 0, x1: 50, y1: 50 }, name: 'Stash' };

/** The box with `shape` added and selected (a text's label field open, as the text tool leaves it); its name field. */
async function selected(shape: DrawnShape, label: 'Text' | 'Label') {
  const user = userEvent.setup();
  render(<SelectedShape />);
  act(() => {
    addShape(shape);
    selectShape(shape.id, shape.type === 'text' ? { editLabel: true } : undefined);
  });
  const field = within(await screen.findByRole('group', { name: 'Selected shape' })).getByRole('textbox', { name: label });
  return { user, field };
}

describe('SelectedShape: a text left with no label', () => {
  it('a text just placed whose label is deleted and Enter pressed is removed, leaving no undo step', async () => {
    const { user, field } = await selected(text, 'Text');
    await waitFor(() => expect(field).toHaveFocus());
    await user.keyboard('{Backspace}{Enter}');
    expect(editor.shapes).toEqual([]);
    expect(storage.getItem(shapesStorageKey('customs'))).toBeNull();
    expect(editor.canUndo).toBe(false);
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Selected shape' })).toBeNull());
  });

  it('a text placed and left as it is (Enter) is kept as one undo step', async () => {
    const { user, field } = await selected(text, 'Text');
    await waitFor(() => expect(field).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(editor.shapes.map((s) => s.name)).toEqual(['Text']);
    expect(editor.canUndo).toBe(true);
    await act(() => undo());
    expect(editor.shapes).toEqual([]);
  });

  it('any other shape may have an empty name', async () => {
    const { user, field } = await selected(rect, 'Label');
    await user.clear(field);
    await user.keyboard('{Enter}');
    expect(editor.shapes.map((s) => [s.id, s.name])).toEqual([['r1', '']]);
  });
});

describe('SelectedShape while its shape is being drawn', () => {
  it('marks its row as waiting (a phone hides it: the dock does not grow under the next tap)', async () => {
    expect(isDrawingPath('draw.poly.drawing')).toBe(true);
    expect(isDrawingPath('draw.poly.idle')).toBe(false);
    expect(isDrawingPath('draw.text.idle')).toBe(false);
    expect(isDrawingPath('edit.dragging_handle')).toBe(false);
    render(<SelectedShape />);
    act(() => {
      addShape(rect);
      selectShape(rect.id);
      setPath('draw.poly.drawing');
    });
    const row = await screen.findByRole('group', { name: 'Selected shape' });
    expect(row).toHaveClass('admin-tools__row--while-drawing');
    act(() => setPath('draw.poly.idle'));
    await waitFor(() => expect(row).not.toHaveClass('admin-tools__row--while-drawing'));
  });
});

describe('SelectedShape: Delete shape', () => {
  /** The row inside a tools panel like ToolsPanel's: its main row's Edit (pressed or not) and Move buttons. */
  function inPanel(editPressed: boolean) {
    render(
      <section className="admin-tools" tabIndex={-1} aria-label="Editor tools">
        <div className="admin-tools__row admin-tools__row--main">
          <button type="button" aria-pressed={editPressed}>
            Edit
          </button>
          <button type="button" aria-pressed={false}>
            Move
          </button>
        </div>
        <SelectedShape />
      </section>,
    );
    act(() => {
      addShape(rect);
      selectShape(rect.id);
    });
  }

  it('takes the keyboard to the pressed mode button, not the page body, as the row goes', async () => {
    const user = userEvent.setup();
    inPanel(true);
    await user.click(await screen.findByRole('button', { name: 'Delete shape' }));
    expect(editor.shapes).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Selected shape' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Edit' })).toHaveFocus();
    expect(document.body).not.toHaveFocus();
  });

  it('with no tool or mode pressed, to the tools panel', async () => {
    const user = userEvent.setup();
    inPanel(false);
    (await screen.findByRole('button', { name: 'Delete shape' })).focus();
    await user.keyboard('{Enter}');
    expect(editor.shapes).toEqual([]);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Editor tools' })).toHaveFocus());
  });
});

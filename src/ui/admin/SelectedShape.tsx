/**
 * The selected drawn shape's row in the tools panel: its type, its name (the text of a text
 * shape, a label for the others: edited in place, saved as one undo step when the field is
 * left or Enter is pressed) and Delete. Nothing while no shape is selected.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { DrawnShape } from '../../domain/shapes';
import { editor, removeShape, updateShape } from '../../state/editor';

export function SelectedShape() {
  const { t } = useTranslation();
  const { shapes, selectedShape } = useSnapshot(editor);
  const shape = selectedShape === null ? undefined : shapes.find((s) => s.id === selectedShape);
  const [name, setName] = useState(shape?.name ?? '');
  // Another shape selected, or its name changed elsewhere (undo): the field shows it in this very
  // render. An effect would set it a moment after the field appeared, over what was typed since.
  const [shown, setShown] = useState({ id: shape?.id, name: shape?.name });
  if (shown.id !== shape?.id || shown.name !== shape?.name) {
    setShown({ id: shape?.id, name: shape?.name });
    setName(shape?.name ?? '');
  }
  if (!shape) return null;

  const commit = () => {
    const current = editor.shapes.find((s) => s.id === shape.id);
    if (!current || current.name === name) return;
    updateShape({ ...(JSON.parse(JSON.stringify(current)) as DrawnShape), name }, true);
  };

  return (
    <div className="admin-tools__row admin-tools__row--shape" role="group" aria-label={t('admin.shape.label')}>
      <span className="admin-tools__shape-type">{t(`admin.tools.${shape.type}`)}</span>
      <label className="admin-tools__shape-name">
        {shape.type === 'text' ? t('admin.shape.text') : t('admin.shape.name')}
        <input
          type="text"
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
          }}
        />
      </label>
      <button type="button" className="admin-button" onClick={() => removeShape(shape.id)}>
        {t('admin.shape.delete')}
      </button>
    </div>
  );
}

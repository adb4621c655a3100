import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { outcomeText, stateText, toolText } from './editorAnnouncements';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const t = i18n.t;

describe('editorAnnouncements', () => {
  it('says each action\'s outcome shortly, in English and Russian', async () => {
    expect(outcomeText(t, { kind: 'placed' })).toBe('Marker placed');
    expect(outcomeText(t, { kind: 'moved' })).toBe('Marker moved');
    expect(outcomeText(t, { kind: 'copied', how: 'paste' })).toBe('Pasted');
    expect(outcomeText(t, { kind: 'copied', how: 'click' })).toBe('Copy placed');
    expect(outcomeText(t, { kind: 'undone', step: 'moveMarker' })).toBe('Undone: marker move');
    expect(outcomeText(t, { kind: 'redone', step: 'addShape' })).toBe('Redone: new shape');
    await i18n.changeLanguage('ru');
    expect(outcomeText(t, { kind: 'placed' })).toBe('Метка поставлена');
    expect(outcomeText(t, { kind: 'undone', step: 'moveMarker' })).toBe('Отменено: перенос метки');
    expect(outcomeText(t, { kind: 'copied', how: 'paste' })).toBe('Вставлено');
  });

  it('names the tool now in use', async () => {
    expect(toolText(t, 'draw', 'marker')).toBe('Marker tool');
    expect(toolText(t, 'pan', null)).toBe('Pan');
    expect(toolText(t, 'move', null)).toBe('Move mode');
    expect(toolText(t, 'edit', null)).toBe('Edit mode');
    await i18n.changeLanguage('ru');
    expect(toolText(t, 'draw', 'marker')).toBe('Инструмент «Метка»');
    expect(toolText(t, 'pan', null)).toBe('Перемещение карты');
  });

  it('puts the state path in words, never the raw names', async () => {
    expect(stateText(t, 'draw.marker.idle')).toBe('Drawing: Marker');
    expect(stateText(t, 'draw.rect.drawing')).toBe('Drawing: Rectangle, in progress');
    expect(stateText(t, 'edit.dragging_handle')).toBe('Edit mode, dragging a point');
    expect(stateText(t, 'pan.pointing')).toBe('Pan');
    expect(stateText(t, 'pan.idle')).toBe('Pan');
    await i18n.changeLanguage('ru');
    expect(stateText(t, 'draw.marker.idle')).toBe('Рисование: Метка');
    expect(stateText(t, 'move.dragging')).toBe('Режим переноса, перетаскивание');
  });
});

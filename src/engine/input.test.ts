// @vitest-environment jsdom
/** DomInput's keys: the map's keys are not the keys typed into a text field. */
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolEvent } from './interaction/events';
import { DomInput } from './input';

let input: DomInput | null = null;
afterEach(() => {
  input?.dispose();
  input = null;
  document.body.innerHTML = '';
});

function setup() {
  document.body.innerHTML = `
    <div id="map"></div>
    <input id="label" type="text"><input id="search" type="search"><textarea></textarea><select><option>a</option></select>
    <div contenteditable="true" id="editable"><span id="inside">x</span></div><div contenteditable="false" id="fixed"></div>
    <input id="check" type="checkbox"><button>Go</button>`;
  const keys: string[] = [];
  input = new DomInput(document.getElementById('map')!, (e: ToolEvent) => {
    if (e.type === 'key_down') keys.push(e.key);
  });
  const press = (selector: string, key: string) =>
    document.querySelector(selector)!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  return { keys, press };
}

describe('DomInput keys', () => {
  it('the map hears keys pressed on the page, a checkbox or a button', () => {
    const { keys, press } = setup();
    press('body', 'e');
    press('#check', 'l');
    press('button', 'm');
    press('#fixed', 'Escape');
    expect(keys).toEqual(['e', 'l', 'm', 'Escape']);
  });

  it('never keys typed into a text field, a text area, a select or an editable element (its children too)', () => {
    const { keys, press } = setup();
    for (const selector of ['#label', '#search', 'textarea', 'select', '#editable', '#inside']) {
      for (const key of ['e', 'l', 'm', '1', 'Escape', 'z']) press(selector, key);
    }
    expect(keys).toEqual([]);
  });
});

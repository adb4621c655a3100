/**
 * A card's one Tab stop, rendered by React (cardStops.ts): the stop is the control last focused
 * while usable, else the first usable; ← → Home End move among the usable controls; the quest
 * actions take their places from the card (CardStopContext), and none outside a card.
 */
import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSession, session, setSessionUser } from '../../state/session';
import { cardStop, CardStopContext, nextIndex, useCardStops } from './cardStops';
import { QUEST_ACTION_SLOTS, QuestActions } from './QuestActions';

afterEach(() => resetSession());

describe('cardStop and nextIndex', () => {
  it('keeps the chosen control while usable, else the first usable one', () => {
    expect(cardStop(['a', 'b', 'c'], null)).toBe('a');
    expect(cardStop(['a', 'b', 'c'], 'c')).toBe('c');
    expect(cardStop(['b', 'c'], 'a')).toBe('b');
    expect(cardStop([], 'a')).toBeNull();
  });

  it('starts on the main control while usable (a card\'s main action, not its first button), the one last used winning', () => {
    expect(cardStop(['a', 'b', 'c'], null, 'c')).toBe('c');
    expect(cardStop(['a', 'b', 'c'], 'b', 'c')).toBe('b');
    expect(cardStop(['a', 'b'], null, 'c')).toBe('a');
    expect(cardStop(['a', 'b'], 'z', 'b')).toBe('b');
  });

  it('moves with ← → Home End, stopping at the ends; other keys are not its', () => {
    expect(nextIndex('ArrowRight', 0, 3)).toBe(1);
    expect(nextIndex('ArrowRight', 2, 3)).toBe(2);
    expect(nextIndex('ArrowLeft', 0, 3)).toBe(0);
    expect(nextIndex('Home', 2, 3)).toBe(0);
    expect(nextIndex('End', 0, 3)).toBe(2);
    expect(nextIndex('ArrowDown', 0, 3)).toBeNull();
    expect(nextIndex('End', 0, 0)).toBeNull();
  });
});

const quest = { uid: 'q-debut', name: 'Debut', ruName: 'Дебют' };

/** A card as the Quests page draws one: the quest actions, then a link; `actions` false while they wait on a save. */
function Card({ actions }: { actions: boolean }) {
  const usable = [...(actions ? QUEST_ACTION_SLOTS : []), 'wiki'];
  const { stopProps, cardProps } = useCardStops(usable);
  return (
    <ul>
      <li {...cardProps}>
        <CardStopContext.Provider value={stopProps}>
          <QuestActions quest={quest} variant="page" />
        </CardStopContext.Provider>
        <a href="https://wiki.test/debut" {...stopProps('wiki')}>
          Wiki
        </a>
      </li>
    </ul>
  );
}

const tabIndexes = () => [...screen.getAllByRole('listitem')[0].querySelectorAll<HTMLElement>('a[href], button')].map((el) => el.tabIndex);

describe('a card of controls', () => {
  it('has one Tab stop, moved by the arrow keys and kept as the one last used; a control that cannot be used gives its place', async () => {
    act(() => {
      setSessionUser({ name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] });
      session.status = 'ready';
    });
    const { rerender } = render(<Card actions />);
    expect(tabIndexes()).toEqual([0, -1, -1]);
    screen.getByRole('button', { name: 'Complete: Debut' }).focus();
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toHaveTextContent('Wiki');
    await userEvent.keyboard('{ArrowLeft}');
    expect(document.activeElement).toHaveAccessibleName('Hide: Debut');
    expect(tabIndexes()).toEqual([-1, 0, -1]);
    // A save runs (the buttons wait): the link is the stop meanwhile; after it, the button last used again.
    rerender(<Card actions={false} />);
    expect(tabIndexes()).toEqual([-1, -1, 0]);
    rerender(<Card actions />);
    expect(tabIndexes()).toEqual([-1, 0, -1]);
  });

  it('leaves the quest actions their own Tab stops outside a card', () => {
    act(() => {
      setSessionUser({ name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] });
      session.status = 'ready';
    });
    render(<QuestActions quest={quest} variant="popup" />);
    for (const button of screen.getAllByRole('button')) {
      expect(button).not.toHaveAttribute('tabindex');
      expect(button).not.toHaveAttribute('data-card-stop');
    }
  });
});

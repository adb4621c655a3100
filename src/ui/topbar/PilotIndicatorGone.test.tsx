import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../../tests/support/fake-event-source';
import { setApiBase } from '../../api/client';
import { setLanguage } from '../../i18n';
import { connect, pilot, PILOT_CODE_KEY, PILOT_GONE_KEY, resetPilot, resume } from '../../state/pilot';
import { memoryStorage, setStorageBackend, writeStored } from '../../state/storage';
import { LiveAnnouncer } from '../LiveAnnouncer';
import { PilotIndicator } from './PilotIndicator';

const CODE = 'ZZZZZZZZZZ';
const GONE = 'No live feed with code ZZZZZ-ZZZZZ: it ended, expired, or was mistyped.';

function renderBar() {
  return render(
    <MemoryRouter>
      <button type="button">Where am I</button>
      <PilotIndicator />
      <LiveAnnouncer />
    </MemoryRouter>,
  );
}

/** The page's live region (LiveAnnouncer), not the menu's own result line. */
const liveRegion = () => document.querySelector('.live-announcer')!;

describe('PilotIndicator: a followed code that turns out gone is said without a tap', () => {
  beforeEach(async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    // The check after the stream gives up: the server does not know the code.
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: 'Not Found', message: 'no pairing' }), { status: 404, headers: { 'content-type': 'application/json' } }));
    setApiBase('http://api.test');
    setStorageBackend(memoryStorage());
    await setLanguage('en');
  });
  afterEach(async () => {
    resetPilot();
    setStorageBackend(null);
    setApiBase('');
    vi.unstubAllGlobals();
    await setLanguage('en');
  });

  it('an unknown code (404): the menu opens once with the reason, the live region says it, the focus stays', async () => {
    const user = userEvent.setup();
    renderBar();
    const where = screen.getByRole('button', { name: 'Where am I' });
    where.focus();
    act(() => void connect(CODE, 'customs'));
    expect(screen.queryByRole('group', { name: 'Live position feed' })).toBeNull();
    act(() => FakeEventSource.last().fail(true));
    const menu = await screen.findByRole('group', { name: 'Live position feed' });
    expect(menu).toHaveTextContent(GONE);
    expect(liveRegion()).toHaveTextContent(GONE);
    expect(screen.getByRole('button', { name: new RegExp(GONE) })).toHaveAttribute('aria-expanded', 'true');
    expect(where).toHaveFocus();

    // Closed, it stays closed: said once.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Live position feed' })).toBeNull();
    await act(async () => {
      pilot.lastMap = null;
    });
    expect(screen.queryByRole('group', { name: 'Live position feed' })).toBeNull();
  });

  it('a session that ends while followed says why, in Russian too', async () => {
    await setLanguage('ru');
    renderBar();
    act(() => void connect(CODE, 'customs'));
    act(() => {
      FakeEventSource.last().open();
      FakeEventSource.last().send({ reason: 'deleted' }, 'end');
    });
    const menu = await screen.findByRole('group', { name: 'Живая позиция' });
    const ended = 'Трансляция позиции ZZZZZ-ZZZZZ закончилась: игрок завершил сеанс.';
    expect(menu).toHaveTextContent(ended);
    expect(liveRegion()).toHaveTextContent(ended);
  });

  it('a code remembered as gone on a later page is shown grey, not opened again', async () => {
    writeStored(PILOT_CODE_KEY, CODE);
    writeStored(PILOT_GONE_KEY, CODE);
    renderBar();
    act(() => void resume('customs'));
    const button = await screen.findByRole('button', { name: new RegExp(GONE) });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(liveRegion()).toHaveTextContent('');
  });
});

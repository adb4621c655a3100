import '../../i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { resetPilot } from '../../state/pilot';
import { TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { useTestServer } from '../map/testing/mapPageTest';
import { FollowCode } from './FollowCode';

const LIVE = 'ABCDEFGHJK';

/** The codes asked about, in order. */
let asked: string[] = [];

const server = useTestServer(
  http.get(`${BASE}/api/be/pilot/:code`, ({ params }) => {
    asked.push(String(params.code));
    if (params.code === LIVE) return HttpResponse.json({ code: LIVE, expiresAt: '2030-01-01T00:00:00.000Z', watchers: 1 });
    return HttpResponse.json({ error: 'not_found', message: 'no such pairing' }, { status: 404 });
  }),
);

beforeEach(() => {
  asked = [];
  localStorage.clear();
  resetPilot();
});
afterEach(async () => {
  resetPilot();
  await setLanguage('en');
});

function renderFollow() {
  const router = createMemoryRouter(
    [
      { path: '/pilot', element: <FollowCode /> },
      { path: '/map/:mapId', element: <p>map page</p> },
    ],
    { initialEntries: ['/pilot'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('Follow a code: the code is checked before the map opens', () => {
  it('a mistyped or ended code is said by the field, the code kept and the focus in the field; nothing opens', async () => {
    const user = userEvent.setup();
    const router = renderFollow();
    const input = screen.getByLabelText('Code');
    await user.type(input, 'zzzzz-zzzzz');
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No live position has the code ZZZZZ-ZZZZZ: it ended, expired, or was mistyped. Check the code.');
    expect(asked).toEqual(['ZZZZZZZZZZ']);
    expect(router.state.location.pathname).toBe('/pilot');
    expect(input).toHaveValue('zzzzz-zzzzz');
    expect(input).toHaveFocus();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(/No live position has the code/);
    expect(screen.queryByRole('button', { name: 'Open the map anyway' })).toBeNull();

    // Corrected: the message goes as the code changes, and a live code opens the map as before.
    await user.clear(input);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(input, 'abcde-fghjk{Enter}');
    await screen.findByText('map page');
    expect(router.state.location.pathname).toBe('/map/customs');
    expect(router.state.location.search).toBe(`?connection=${LIVE}`);
  });

  it('says it in Russian', async () => {
    await setLanguage('ru');
    const user = userEvent.setup();
    renderFollow();
    await user.type(screen.getByLabelText('Код'), 'ZZZZZ-ZZZZZ');
    await user.click(screen.getByRole('button', { name: 'Следить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Нет трансляции позиции с кодом ZZZZZ-ZZZZZ: она закончилась, истекла или код набран с ошибкой.');
  });

  it('a text that cannot be a code is refused without asking the server', async () => {
    const user = userEvent.setup();
    renderFollow();
    await user.type(screen.getByLabelText('Code'), 'abcde-fghj0{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('The code has “0”');
    expect(asked).toEqual([]);
  });

  it('refused for guessing (429): says so and how long, opens nothing by itself, and offers the map, which waits by itself', async () => {
    server.use(http.get(`${BASE}/api/be/pilot/:code`, () => HttpResponse.json({ error: 'rate_limited', message: 'wait', limit: 'guesses', retryAfter: 300 }, { status: 429 })));
    const user = userEvent.setup();
    const router = renderFollow();
    const input = screen.getByLabelText('Code');
    await user.type(input, `${LIVE}{Enter}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(/too many unknown codes .* Try again in 5 minutes\. Or open the map now: it connects by itself once the wait is over\./);
    expect(router.state.location.pathname).toBe('/pilot');
    // The code may well be right: not marked as its fault.
    expect(input).toHaveAttribute('aria-invalid', 'false');
    expect(input).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Open the map anyway' }));
    await screen.findByText('map page');
    expect(router.state.location.pathname).toBe('/map/customs');
    expect(router.state.location.search).toBe(`?connection=${LIVE}`);
  });

  it('a 429 in Russian: the wait, and the map offered anyway', async () => {
    server.use(http.get(`${BASE}/api/be/pilot/:code`, () => HttpResponse.json({ error: 'rate_limited', message: 'wait', limit: 'guesses', retryAfter: 300 }, { status: 429 })));
    await setLanguage('ru');
    const user = userEvent.setup();
    renderFollow();
    await user.type(screen.getByLabelText('Код'), `${LIVE}{Enter}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(/Попробуйте снова через 5 минут\. Или откройте карту уже сейчас: она подключится сама, когда ожидание закончится\./);
    expect(screen.getByRole('button', { name: 'Всё равно открыть карту' })).toBeInTheDocument();
  });

  it('the server out of reach: says so; Follow tries again, and the map may be opened anyway', async () => {
    server.use(http.get(`${BASE}/api/be/pilot/:code`, () => HttpResponse.error()));
    const user = userEvent.setup();
    const router = renderFollow();
    const input = screen.getByLabelText('Code');
    await user.type(input, `${LIVE}`);
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not check the code: the server could not be reached. Press Follow to try again');
    // Not the code's fault.
    expect(input).toHaveAttribute('aria-invalid', 'false');
    expect(input).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Open the map anyway' }));
    await screen.findByText('map page');
    expect(router.state.location.search).toBe(`?connection=${LIVE}`);
  });

  it('a 5xx says the status; once the server answers, Follow opens the map', async () => {
    server.use(http.get(`${BASE}/api/be/pilot/:code`, () => HttpResponse.json({ error: 'unavailable' }, { status: 503 }), { once: true }));
    const user = userEvent.setup();
    const router = renderFollow();
    await user.type(screen.getByLabelText('Code'), `${LIVE}{Enter}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('the server answered with an error (503)');
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    await screen.findByText('map page');
    expect(router.state.location.pathname).toBe('/map/customs');
  });

  it('a code edited while it is checked: the old answer is dropped', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.get(`${BASE}/api/be/pilot/:code`, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json({ error: 'not_found' }, { status: 404 });
      }, { once: true }),
    );
    const user = userEvent.setup();
    const router = renderFollow();
    const input = screen.getByLabelText('Code');
    await user.type(input, 'ZZZZZZZZZZ{Enter}');
    expect(screen.getByRole('button', { name: 'Checking…' })).toBeInTheDocument();
    await user.type(input, 'Z');
    release();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(router.state.location.pathname).toBe('/pilot');
  });
});

import '../../i18n';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '../../i18n';
import { PILOT_PAIRING_KEY, PILOT_SENT_KEY, refreshPairing, resetPilot } from '../../state/pilot';
import { readStored, writeStored } from '../../state/storage';
import { TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { useTestServer } from '../map/testing/mapPageTest';
import { PilotPage } from '../pages/PilotPage';

const CODE = 'ABCDEFGHJK';
const TOKEN = 'secret-token-123';
const NAME = '2024-05-01[12-34]_123.45, 6.78, -90.12_0.12345, -0.54321, 0.11111, 0.82345_12.34 (0).png';

const server = useTestServer(
  http.post(`${BASE}/api/be/pilot/pairings`, () => HttpResponse.json({ code: CODE, token: TOKEN, expiresAt: '2030-01-01T00:00:00.000Z' }, { status: 201 })),
  http.get(`${BASE}/api/be/pilot/:code`, ({ params }) => HttpResponse.json({ code: params.code, expiresAt: '2030-01-01T00:00:00.000Z', watchers: 2 })),
  http.delete(`${BASE}/api/be/pilot/:code`, () => new HttpResponse(null, { status: 204 })),
);

beforeEach(() => {
  localStorage.clear();
  resetPilot();
});
afterEach(async () => {
  resetPilot();
  localStorage.clear();
  delete (window as { showDirectoryPicker?: unknown }).showDirectoryPicker;
  await setLanguage('en');
});

function renderPilot({ strict = false } = {}) {
  const router = createMemoryRouter(
    [
      { path: '/pilot', element: <PilotPage /> },
      { path: '/map/:mapId', element: <p>map page</p> },
      { path: '/', element: <p>home</p> },
    ],
    { initialEntries: ['/pilot'] },
  );
  const page = <RouterProvider router={router} />;
  render(strict ? <StrictMode>{page}</StrictMode> : page);
  return router;
}

/** The page reloaded: React and the module state start again, the browser's storage stays. */
function reloadPilot(options?: { strict?: boolean }) {
  cleanup();
  resetPilot();
  return renderPilot(options);
}

/** A pairing this browser made before (the page takes it up on load). */
function rememberPairing() {
  writeStored(PILOT_PAIRING_KEY, JSON.stringify({ code: CODE, token: TOKEN, expiresAt: '2030-01-01T00:00:00.000Z' }));
}

/** Captures the messages published, with their Authorization header. */
function captureMessages(status = 200) {
  const seen: { auth: string | null; body: unknown }[] = [];
  server.use(
    http.post(`${BASE}/api/be/pilot/:code/messages`, async ({ request }) => {
      seen.push({ auth: request.headers.get('authorization'), body: await request.json() });
      if (status !== 200) return HttpResponse.json({ error: status === 429 ? 'rate_limited' : 'refused' }, { status });
      return HttpResponse.json({ ok: true, watchers: 3 });
    }),
  );
  return seen;
}

describe('/pilot', () => {
  it('starts a session: the code large, its QR code, link, watcher command and watchers; End session ends it', async () => {
    const user = userEvent.setup();
    renderPilot();
    expect(document.title).toBe('Live position - raidmap');
    expect(screen.getByText('No session yet: start one to send your position.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Test with a file name' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Start a live session' }));
    expect(await screen.findByTestId('pilot-code')).toHaveTextContent('ABCDE-FGHJK');
    const qr = await screen.findByRole('img', { name: 'QR code of the link to follow the code ABCDE-FGHJK' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(decodeURIComponent(qr.getAttribute('src')!)).toContain('<svg');
    const link = `${location.origin}/map/customs?connection=${CODE}`;
    expect(screen.getByRole('link', { name: link })).toHaveAttribute('href', link);
    // The token is hidden (the page is often on a shared screen) until asked for; Copy copies it whole.
    const command = `npm run pilot -- --server ${location.origin} --code ${CODE} --token ${TOKEN}`;
    expect(screen.getByTestId('pilot-command')).toHaveTextContent(`npm run pilot -- --server ${location.origin} --code ${CODE} --token ••••••••••••`);
    expect(document.body).not.toHaveTextContent(TOKEN);
    await user.click(screen.getByRole('button', { name: 'Copy the watcher command' }));
    expect(await navigator.clipboard.readText()).toBe(command);
    await user.click(screen.getByRole('button', { name: 'Show the key' }));
    expect(screen.getByTestId('pilot-command')).toHaveTextContent(command);
    await user.click(screen.getByRole('button', { name: 'Hide the key' }));
    expect(document.body).not.toHaveTextContent(TOKEN);
    expect(screen.getByText(`${location.origin}/map/customs?overlay=1&connection=${CODE}`)).toBeInTheDocument();
    expect(await screen.findByText('2 pages watching')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the code' })).toBeInTheDocument();
    // Remembered: a reload keeps the session.
    expect(JSON.parse(readStored(PILOT_PAIRING_KEY)!)).toMatchObject({ code: CODE, token: TOKEN });
    // The sending tools show once there is a session.
    expect(screen.getByRole('heading', { name: 'Test with a file name' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Map of the raid' })).toBeInTheDocument();

    let deleted: string | null = null;
    server.use(
      http.delete(`${BASE}/api/be/pilot/:code`, ({ request, params }) => {
        deleted = `${String(params.code)} ${request.headers.get('authorization')}`;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await user.click(screen.getByRole('button', { name: 'End session' }));
    await screen.findByRole('button', { name: 'Start a live session' });
    expect(deleted).toBe(`${CODE} Bearer ${TOKEN}`);
    expect(readStored(PILOT_PAIRING_KEY)).toBeNull();
  });

  it('takes up the session remembered from before a reload', async () => {
    rememberPairing();
    renderPilot();
    expect(await screen.findByTestId('pilot-code')).toHaveTextContent('ABCDE-FGHJK');
    expect(await screen.findByText('2 pages watching')).toBeInTheDocument();
  });

  it('says so in words when the server refuses a new session with 429', async () => {
    server.use(http.post(`${BASE}/api/be/pilot/pairings`, () => HttpResponse.json({ error: 'rate_limited' }, { status: 429 })));
    const user = userEvent.setup();
    renderPilot();
    await user.click(screen.getByRole('button', { name: 'Start a live session' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many updates at once: the server asked to slow down.');
    expect(screen.getByRole('button', { name: 'Start a live session' })).toBeEnabled();
  });

  it('sends a pasted file name as the position, with the Bearer token, and shows it under Last sent', async () => {
    rememberPairing();
    const seen = captureMessages();
    const user = userEvent.setup();
    renderPilot();
    await user.click(await screen.findByLabelText('Screenshot file name'));
    await user.paste(NAME);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    expect(await screen.findByText('Sent: X 123.45, Z -90.12, height 6.78.')).toBeInTheDocument();
    expect(seen).toHaveLength(1);
    expect(seen[0].auth).toBe(`Bearer ${TOKEN}`);
    expect(seen[0].body).toEqual({ type: 'position', data: { x: 123.45, y: -90.12, z: 6.78, look: expect.any(Number) } });
    const last = screen.getByRole('heading', { name: 'Last sent' }).closest('section')!;
    expect(within(last).getByText(/X 123\.45, Z -90\.12, height 6\.78 · /)).toBeInTheDocument();
    expect(await screen.findByText('3 pages watching')).toBeInTheDocument();
  });

  it('shows what was last sent after a reload (kept with the session), and forgets it with the session', async () => {
    rememberPairing();
    captureMessages();
    const user = userEvent.setup();
    renderPilot();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Map' }), 'woods');
    await user.click(screen.getByRole('button', { name: 'Send the map' }));
    await user.click(screen.getByLabelText('Screenshot file name'));
    await user.paste(NAME);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    await screen.findByText('Sent: X 123.45, Z -90.12, height 6.78.');

    reloadPilot();
    const last = (await screen.findByRole('heading', { name: 'Last sent' })).closest('section')!;
    expect(await within(last).findByText(/^X 123\.45, Z -90\.12, height 6\.78 · /)).toBeInTheDocument();
    expect(within(last).getByText(/^Woods · /)).toBeInTheDocument();
    // The map picker and the link are on the map last sent too.
    expect(screen.getByRole('combobox', { name: 'Map' })).toHaveValue('woods');
    expect(screen.getByRole('link', { name: `${location.origin}/map/woods?connection=${CODE}` })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'End session' }));
    await screen.findByRole('button', { name: 'Start a live session' });
    expect(readStored(PILOT_SENT_KEY)).toBeNull();
  });

  it('says why the server refused a position far off the map', async () => {
    rememberPairing();
    server.use(
      http.post(`${BASE}/api/be/pilot/:code/messages`, () =>
        HttpResponse.json({ error: 'outside_map', message: 'bad message: data: the position (x 123.45, y -90.12) is outside Factory', map: 'factory' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderPilot();
    await user.click(await screen.findByLabelText('Screenshot file name'));
    await user.paste(NAME);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    expect(await screen.findByText('Not sent: see the reason under Last sent.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Not sent: that position is far outside Factory, the map last sent.');
    const last = screen.getByRole('heading', { name: 'Last sent' }).closest('section')!;
    expect(within(last).getAllByText('Nothing yet')).toHaveLength(2);

    // Any other refused message says the server's reason.
    server.use(http.post(`${BASE}/api/be/pilot/:code/messages`, () => HttpResponse.json({ error: 'Bad Request', message: 'bad message: data.look: Too big' }, { status: 400 })));
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The server refused what was sent: bad message: data.look: Too big'));
  });

  it('reloaded while the server refuses this address (429), asks once and waits as long as it said', async () => {
    rememberPairing();
    const lookups: string[] = [];
    server.use(
      http.get(`${BASE}/api/be/pilot/:code`, ({ request }) => {
        lookups.push(request.url);
        return HttpResponse.json({ error: 'Too Many Requests', message: 'too many', limit: 'guesses', retryAfter: 300 }, { status: 429, headers: { 'retry-after': '300' } });
      }),
    );
    // React's development double effects included.
    renderPilot({ strict: true });
    expect(await screen.findByRole('alert')).toHaveTextContent(/too many unknown codes or wrong keys came from your network address.*Try again in 5 minutes\./);
    expect(lookups).toHaveLength(1);
    // The page's next periodic check, well within the wait: nothing is asked.
    await refreshPairing();
    expect(lookups).toHaveLength(1);
    expect(screen.getByTestId('pilot-code')).toHaveTextContent('ABCDE-FGHJK');
  });

  it('says a name holds no position without sending it', async () => {
    rememberPairing();
    const seen = captureMessages();
    const user = userEvent.setup();
    renderPilot();
    await user.type(await screen.findByLabelText('Screenshot file name'), 'holiday photo.png');
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That name holds no position.');
    expect(seen).toHaveLength(0);
  });

  it('shows a rate-limited publish in words', async () => {
    rememberPairing();
    captureMessages(429);
    const user = userEvent.setup();
    renderPilot();
    await user.click(await screen.findByLabelText('Screenshot file name'));
    await user.paste(NAME);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    expect(await screen.findByText('Not sent: see the reason under Last sent.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Too many updates at once');
  });

  it('says which rule refused and the wait the server asked for: too many tries from this address, or too many sessions', async () => {
    rememberPairing();
    const refusal = (limit: string, retryAfter: number) => () =>
      HttpResponse.json({ error: 'Too Many Requests', message: 'too many', limit, retryAfter }, { status: 429, headers: { 'retry-after': String(retryAfter) } });
    server.use(http.post(`${BASE}/api/be/pilot/:code/messages`, refusal('guesses', 314)));
    const user = userEvent.setup();
    renderPilot();
    await user.click(await screen.findByLabelText('Screenshot file name'));
    await user.paste(NAME);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('too many unknown codes or wrong keys came from your network address');
    expect(alert).toHaveTextContent('Try again in 6 minutes.');
    expect(alert).not.toHaveTextContent('Too many updates');

    await user.click(screen.getByRole('button', { name: 'End session' }));
    server.use(http.post(`${BASE}/api/be/pilot/pairings`, refusal('pairings', 45)));
    await user.click(await screen.findByRole('button', { name: 'Start a live session' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/^Too many live sessions were started from your network address\. Try again in \d+ seconds\.$/));
  });

  it('sends the map again when the server says it lost it (a restart), so pages opening then are on the right map', async () => {
    rememberPairing();
    const seen: { body: unknown }[] = [];
    let knows = true;
    server.use(
      http.post(`${BASE}/api/be/pilot/:code/messages`, async ({ request }) => {
        const body = (await request.json()) as { type: string };
        seen.push({ body });
        if (body.type === 'map') knows = true;
        return HttpResponse.json({ ok: true, watchers: 1, knowsMap: knows });
      }),
    );
    const user = userEvent.setup();
    renderPilot();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Map' }), 'woods');
    await user.click(screen.getByRole('button', { name: 'Send the map' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    knows = false;
    await user.click(screen.getByLabelText('Screenshot file name'));
    await user.paste(NAME);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    // The map again, then the position again (a page shows no position older than its map).
    await waitFor(() => expect(seen.map((s) => (s.body as { type: string }).type)).toEqual(['map', 'position', 'map', 'position']));
    expect(seen[2].body).toEqual({ type: 'map', data: { map: 'woods' } });
    expect(seen[3].body).toEqual(seen[1].body);
  });

  it('sends the map and position again when the periodic check of the session says the server lost the map', async () => {
    rememberPairing();
    const seen: { body: unknown }[] = [];
    server.use(
      http.post(`${BASE}/api/be/pilot/:code/messages`, async ({ request }) => {
        seen.push({ body: await request.json() });
        return HttpResponse.json({ ok: true, watchers: 1, knowsMap: true });
      }),
    );
    const user = userEvent.setup();
    renderPilot();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Map' }), 'woods');
    await user.click(screen.getByRole('button', { name: 'Send the map' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    server.use(http.get(`${BASE}/api/be/pilot/:code`, () => HttpResponse.json({ code: CODE, expiresAt: '2030-01-01T00:00:00.000Z', watchers: 0, knowsMap: false })));
    await refreshPairing();
    await waitFor(() => expect(seen.map((s) => (s.body as { type: string }).type)).toEqual(['map', 'map']));
    expect(seen[1].body).toEqual({ type: 'map', data: { map: 'woods' } });
  });

  it('a position sent while the server was down is sent once it answers again, not lost under the last one that went through', async () => {
    rememberPairing();
    const seen: unknown[] = [];
    let down = false;
    server.use(
      http.post(`${BASE}/api/be/pilot/:code/messages`, async ({ request }) => {
        if (down) return HttpResponse.error();
        seen.push(await request.json());
        return HttpResponse.json({ ok: true, watchers: 1, knowsMap: true });
      }),
    );
    const user = userEvent.setup();
    renderPilot();
    const box = await screen.findByLabelText('Screenshot file name');
    await user.click(box);
    await user.paste(NAME);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    await waitFor(() => expect(seen).toHaveLength(1));

    down = true;
    const later = '2024-05-01[12-40]_20.5, 1, 30.25_0, 0, 0, 1_1 (0).png';
    await user.clear(box);
    await user.click(box);
    await user.paste(later);
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    await screen.findByRole('alert');
    expect(seen).toHaveLength(1);

    down = false;
    await refreshPairing();
    await waitFor(() => expect(seen).toHaveLength(2));
    expect(seen[1]).toMatchObject({ type: 'position', data: { x: 20.5, y: 30.25, z: 1 } });
    const last = screen.getByRole('heading', { name: 'Last sent' }).closest('section')!;
    expect(await within(last).findByText(/^X 20\.5, Z 30\.25, height 1 · /)).toBeInTheDocument();
  });

  it('sends the map chosen by hand', async () => {
    rememberPairing();
    const seen = captureMessages();
    const user = userEvent.setup();
    renderPilot();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Map' }), 'woods');
    expect(screen.queryByRole('option', { name: 'Dev' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send the map' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({ auth: `Bearer ${TOKEN}`, body: { type: 'map', data: { map: 'woods' } } });
    const last = screen.getByRole('heading', { name: 'Last sent' }).closest('section')!;
    expect(await within(last).findByText(/^Woods · /)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: `${location.origin}/map/woods?connection=${CODE}` })).toBeInTheDocument();
  });

  it('says clearly when the browser cannot watch a folder, and points to the watcher', async () => {
    rememberPairing();
    renderPilot();
    const section = (await screen.findByRole('heading', { name: 'Watch my screenshots folder' })).closest('section')!;
    expect(within(section).getByText(/This browser cannot watch a folder: the File System Access API is missing/)).toBeInTheDocument();
    expect(within(section).getByText(/run the watcher on your PC/)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Choose the screenshots folder' })).toBeNull();
  });

  it('watches a chosen folder: old screenshots are left alone, a new one is sent', async () => {
    rememberPairing();
    const seen = captureMessages();
    const files = [{ kind: 'file' as const, name: 'old (0).png', getFile: async () => new File([], 'old.png', { lastModified: 1 }) }];
    const dir = {
      kind: 'directory' as const,
      name: 'Screenshots',
      async *values() {
        yield* files;
      },
    };
    (window as { showDirectoryPicker?: unknown }).showDirectoryPicker = async () => dir;
    const user = userEvent.setup();
    renderPilot();
    await user.click(await screen.findByRole('button', { name: 'Choose the screenshots folder' }));
    expect(await screen.findByText('Watching “Screenshots”: looked at twice a second.')).toBeInTheDocument();
    files.push({ kind: 'file', name: 'notes.txt', getFile: async () => new File([], 'notes.txt', { lastModified: 2 }) });
    files.push({ kind: 'file', name: NAME, getFile: async () => new File([], NAME, { lastModified: 3 }) });
    await waitFor(() => expect(seen).toHaveLength(1), { timeout: 3000 });
    expect(seen[0].body).toMatchObject({ type: 'position', data: { x: 123.45, y: -90.12, z: 6.78 } });
    expect(await screen.findByText(/Sent: 1\. Other files skipped: 1\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stop watching' }));
    expect(screen.getByRole('button', { name: 'Choose the screenshots folder' })).toBeInTheDocument();
  });

  it('follows a typed code, saying what is wrong with one that is not', async () => {
    const user = userEvent.setup();
    const router = renderPilot();
    const input = screen.getByLabelText('Code');
    const follow = screen.getByRole('button', { name: 'Follow' });

    await user.click(follow);
    expect(screen.getByRole('alert')).toHaveTextContent('Type the code first');
    await user.type(input, 'ABCDE');
    await user.click(follow);
    expect(screen.getByRole('alert')).toHaveTextContent('A code has 10 characters; this one has 5.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.clear(input);
    await user.type(input, 'abcde-fghj0');
    await user.click(follow);
    expect(screen.getByRole('alert')).toHaveTextContent('The code has “0”, which codes never contain');

    await user.clear(input);
    await user.type(input, 'abcde-fghjk');
    await user.click(follow);
    await screen.findByText('map page');
    expect(router.state.location.pathname).toBe('/map/customs');
    expect(router.state.location.search).toBe(`?connection=${CODE}`);
  });

  it("says the position sent to the centimetre under Sent and Last sent, as the map's Where am I does (5.75, not 5.8)", async () => {
    rememberPairing();
    captureMessages();
    const user = userEvent.setup();
    renderPilot();
    await user.click(await screen.findByLabelText('Screenshot file name'));
    await user.paste('2024-05-01[12-34]_5.75, 2.31, 1.45_0.1, -0.5, 0.1, 0.8_12.34 (0).png');
    await user.click(screen.getByRole('button', { name: 'Send this position' }));
    // The words Where am I says for the same name (WhereAmI.tsx: whereAmI.found).
    expect(i18n.t('whereAmI.found', { x: 5.75, y: 1.45, z: 2.31 })).toBe('You are at X 5.75, Z 1.45, height 2.31.');
    expect(await screen.findByText('Sent: X 5.75, Z 1.45, height 2.31.')).toBeInTheDocument();
    const last = screen.getByRole('heading', { name: 'Last sent' }).closest('section')!;
    expect(within(last).getByText(/^X 5\.75, Z 1\.45, height 2\.31 · /)).toBeInTheDocument();
  });

  it('switches between English and Russian with the EN / RU buttons in its header, as the home and map pages do', async () => {
    const user = userEvent.setup();
    renderPilot();
    const header = screen.getByRole('banner');
    const group = within(header).getByRole('group', { name: 'Language' });
    expect(within(group).getByRole('button', { name: 'EN English' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(group).getByRole('button', { name: 'RU Русский' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Живая трансляция позиции' })).toBeInTheDocument();
    expect(document.title).toBe(i18n.t('pilot.title'));
    const russian = within(screen.getByRole('banner')).getByRole('group', { name: 'Язык' });
    expect(within(russian).getByRole('button', { name: 'RU Русский' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(russian).getByRole('button', { name: 'EN English' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Live position feed' })).toBeInTheDocument();
  });

  it('speaks Russian', async () => {
    await setLanguage('ru');
    renderPilot();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Живая трансляция позиции');
    expect(screen.getByRole('button', { name: 'Начать трансляцию' })).toBeInTheDocument();
  });
});

describe('/pilot: the keyboard follows Start and End session', () => {
  it('Enter on Start takes the focus to the new session, and Enter on End back to Start (Tab goes on from there)', async () => {
    const user = userEvent.setup();
    renderPilot();
    screen.getByRole('button', { name: 'Start a live session' }).focus();
    await user.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Your live session' });
    await waitFor(() => expect(heading).toHaveFocus());
    await user.tab();
    expect(screen.getByRole('button', { name: 'Copy the code' })).toHaveFocus();

    screen.getByRole('button', { name: 'End session' }).focus();
    await user.keyboard('{Enter}');
    const start = await screen.findByRole('button', { name: 'Start a live session' });
    await waitFor(() => expect(start).toHaveFocus());
  });

  it('keeps the focus on Start while it works and when the server refuses (the reason in an alert)', async () => {
    let answer!: () => void;
    server.use(
      http.post(`${BASE}/api/be/pilot/pairings`, async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json({ error: 'rate_limited' }, { status: 429 });
      }),
    );
    const user = userEvent.setup();
    renderPilot();
    screen.getByRole('button', { name: 'Start a live session' }).focus();
    await user.keyboard('{Enter}');
    const starting = await screen.findByRole('button', { name: 'Starting…' });
    expect(starting).toHaveFocus();
    expect(starting).toHaveAttribute('aria-disabled', 'true');
    answer();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many updates at once');
    expect(screen.getByRole('button', { name: 'Start a live session' })).toHaveFocus();
  });

  it('does the same in Russian', async () => {
    await setLanguage('ru');
    const user = userEvent.setup();
    renderPilot();
    await user.click(screen.getByRole('button', { name: 'Начать трансляцию' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Ваша трансляция' })).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Завершить трансляцию' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Начать трансляцию' })).toHaveFocus());
  });

  it('leaves the focus alone when a remembered session is taken up on load', async () => {
    rememberPairing();
    renderPilot();
    expect(await screen.findByTestId('pilot-code')).toHaveTextContent('ABCDE-FGHJK');
    expect(document.body).toHaveFocus();
  });
});

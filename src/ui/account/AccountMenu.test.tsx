import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../../api/account';
import { setLanguage } from '../../i18n';
import { closeAccountDialog, closeUpsell, layout, openAccountDialog } from '../../state/layout';
import { resetSession, session, SIGNED_IN_ROLE_KEY } from '../../state/session';
import { readStored, writeStored } from '../../state/storage';
import { App } from '../App';
import { accountServer, TEST_API_BASE as BASE, type MockAccountServer } from '../map/testing/mapApi';
import { setSignedInHint, useMemoryStorage, useTestServer } from '../map/testing/mapPageTest';
import { routes } from '../routes';

// The map page is not opened here; keep PixiJS (no WebGL in jsdom) out of the module graph.
vi.mock('../../engine/index', () => ({ createMapEngine: vi.fn() }));

const account = (name: string, roles: Partial<Pick<AccountUser, 'pro' | 'admin'>> = {}): AccountUser => ({
  name,
  pro: roles.pro ?? false,
  admin: roles.admin ?? false,
  questsDone: [],
  questsHidden: [],
});
const PASSWORD = 'demo-pass';

const server = useTestServer();
useMemoryStorage();

afterEach(async () => {
  setSignedInHint(false);
  resetSession();
  closeAccountDialog();
  closeUpsell();
  await setLanguage('en');
});

/**
 * The account server, with `user` signed in at the start or (signedIn false) known to it but
 * signed out in this browser: no hint cookie, so the page asks nothing at start.
 */
function serve(user: AccountUser | null, { signedIn = true } = {}): MockAccountServer {
  const api = accountServer(user, PASSWORD);
  server.use(...api.handlers);
  if (!signedIn) setSignedInHint(false);
  return api;
}

/** The whole app on the home page, as main.tsx starts it (so the session is read once). */
function renderHome() {
  const router = createMemoryRouter(routes, { initialEntries: ['/'] });
  return render(<App router={router} />);
}

const signInButton = () => screen.findByRole('button', { name: 'Sign in' });

async function fillAndSubmit(dialog: HTMLElement, name: string, password: string, submit: string) {
  await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), name);
  await userEvent.type(within(dialog).getByLabelText('Password'), password);
  await userEvent.click(within(dialog).getByRole('button', { name: submit }));
}

/** Renders the home page and opens the sign-in dialog from "Sign in". */
async function openSignIn(): Promise<HTMLElement> {
  renderHome();
  await userEvent.click(await signInButton());
  return screen.getByRole('dialog', { name: 'Sign in' });
}

/** Renders the home page and opens the create-account form from the sign-in dialog. */
async function openCreateAccount(): Promise<HTMLElement> {
  renderHome();
  await userEvent.click(await signInButton());
  await userEvent.click(screen.getByRole('button', { name: 'Create an account' }));
  return screen.getByRole('dialog', { name: 'Create account' });
}

/** Tries to create an account named "pro", a name the server has: the form shows the server's 409 refusal. */
async function refusedTakenName(): Promise<HTMLElement> {
  const dialog = await openCreateAccount();
  await fillAndSubmit(dialog, 'pro', 'long-enough-password', 'Create account');
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('the name "pro" is taken');
  return dialog;
}

describe('account menu at start', () => {
  it('offers "Sign in" to a signed-out visitor without asking the server (no signed-in hint)', async () => {
    const api = serve(null);
    renderHome();
    expect(await signInButton()).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Checking whether you are signed in' })).toBeNull();
    expect(api.requests).toEqual([]);
    expect(session.status).toBe('ready');
  });

  it('reads GET /api/be/user once at start, with a neutral placeholder instead of "Sign in" meanwhile', async () => {
    const api = serve(account('pro', { pro: true }));
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get(`${BASE}/api/be/user`, async () => {
        await answered;
        // Fall through to the account server's own handler.
      }),
    );
    renderHome();
    const placeholder = await screen.findByRole('button', { name: 'Checking whether you are signed in' });
    expect(placeholder).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    await waitFor(() => expect(session.status).toBe('loading'));
    act(() => answer());
    expect(await screen.findByRole('button', { name: 'pro Pro' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Checking whether you are signed in' })).toBeNull();
    expect(api.requests).toEqual(['GET /api/be/user']);
  });

  it('shows a signed-in user by name and badge without ever offering "Sign in"', async () => {
    serve(account('pro', { pro: true }));
    renderHome();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    const button = await screen.findByRole('button', { name: /^pro/ });
    expect(button).toHaveAccessibleName('pro Pro');
    expect(within(button).getByText('Pro')).toHaveClass('account-menu__badge--pro');
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('shows the admin badge and says "Admin account" in the menu', async () => {
    serve(account('admin', { admin: true }));
    renderHome();
    const button = await screen.findByRole('button', { name: 'admin Admin' });
    await userEvent.click(button);
    expect(screen.getByText('Admin account')).toBeInTheDocument();
    expect(screen.getByText('Signed in as admin')).toBeInTheDocument();
  });

  it('lets an admin grant and revoke pro from "Accounts and pro"; others have no such item', async () => {
    serve(account('admin', { admin: true }));
    const accounts = [
      { name: 'admin', pro: false, admin: true },
      { name: 'alice', pro: false, admin: false },
    ];
    const posted: unknown[] = [];
    server.use(
      http.get(`${BASE}/api/be/admin/users`, () => HttpResponse.json({ users: accounts })),
      http.post(`${BASE}/api/be/admin/users/pro`, async ({ request }) => {
        const body = (await request.json()) as { name: string; pro: boolean };
        posted.push(body);
        if (body.name === 'alice' && posted.length > 1) return HttpResponse.json({ error: 'internal', message: 'database down' }, { status: 500 });
        return HttpResponse.json({ user: { name: body.name, pro: body.pro, admin: false } });
      }),
    );
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'admin Admin' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Accounts and pro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accounts' });
    const alice = await within(dialog).findByRole('checkbox', { name: 'Pro for alice' });
    // Admins get no switch: they are made with the command-line tool.
    expect(within(dialog).queryByRole('checkbox', { name: 'Pro for admin' })).toBeNull();
    await userEvent.click(alice);
    await waitFor(() => expect(alice).toBeChecked());
    expect(posted).toEqual([{ name: 'alice', pro: true }]);
    // A failed change leaves the switch as it was and says why.
    await userEvent.click(alice);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Pro could not be changed for alice: database down');
    expect(alice).toBeChecked();
  });

  it('offers no "Accounts and pro" to a pro user', async () => {
    serve(account('pro', { pro: true }));
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'pro Pro' }));
    expect(screen.queryByRole('menuitem', { name: 'Accounts and pro' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('says so when the server could not tell, and still offers "Sign in"', async () => {
    setSignedInHint(true);
    server.use(http.get(`${BASE}/api/be/user`, () => HttpResponse.json({ error: 'internal', message: 'database down' }, { status: 500 })));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderHome();
    expect(await signInButton()).toBeEnabled();
    expect(screen.getByText('Could not check your sign-in')).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('sign in', () => {
  it('with the right password closes the dialog, shows the name and badge and gives focus back to the menu button', async () => {
    const api = serve(account('pro', { pro: true }), { signedIn: false });
    const dialog = await openSignIn();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('autocomplete', 'username');
    expect(within(dialog).getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    await fillAndSubmit(dialog, 'pro', PASSWORD, 'Sign in');

    const button = await screen.findByRole('button', { name: 'pro Pro' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(layout.accountDialog).toBeNull();
    await waitFor(() => expect(button).toHaveFocus());
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(session.user?.name).toBe('pro');
    expect(api.requests).toEqual(['POST /api/be/auth/login']);
  });

  it('with a wrong password shows the server message and keeps the dialog open', async () => {
    serve(account('pro', { pro: true }), { signedIn: false });
    const dialog = await openSignIn();
    await fillAndSubmit(dialog, 'pro', 'not-the-password', 'Sign in');

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('wrong name or password');
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBe(dialog);
    expect(within(dialog).getByLabelText('Password')).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(session.user).toBeNull();
  });

  it('submits on Enter', async () => {
    const api = serve(account('visitor'), { signedIn: false });
    const dialog = await openSignIn();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'visitor');
    await userEvent.type(within(dialog).getByLabelText('Password'), `${PASSWORD}{Enter}`);
    // A signed-in user without pro has no badge.
    expect(await screen.findByRole('button', { name: 'visitor' })).toBeInTheDocument();
    expect(api.requests).toContain('POST /api/be/auth/login');
  });

  it('disables the submit button while the request is on its way', async () => {
    serve(account('pro', { pro: true }), { signedIn: false });
    let release: () => void = () => undefined;
    server.use(
      http.post(`${BASE}/api/be/auth/login`, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json({ user: account('pro', { pro: true }) });
      }),
    );
    const dialog = await openSignIn();
    await fillAndSubmit(dialog, 'pro', PASSWORD, 'Sign in');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Sign in' })).toBeDisabled());
    act(() => release());
    expect(await screen.findByRole('button', { name: 'pro Pro' })).toBeInTheDocument();
  });

  it('asks for both fields before sending anything', async () => {
    const api = serve(account('pro', { pro: true }), { signedIn: false });
    const dialog = await openSignIn();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAccessibleDescription('Enter your name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription('Enter your password');
    expect(api.requests).toEqual([]);
  });

  it('closes on Escape, focus back on "Sign in", nothing sent', async () => {
    const api = serve(null);
    renderHome();
    const button = await signInButton();
    await userEvent.click(button);
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
    expect(api.requests).toEqual([]);
  });

  it('shows the refusal in Russian when the page is in Russian', async () => {
    serve(account('pro', { pro: true }), { signedIn: false });
    await setLanguage('ru');
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'Войти' }));
    const dialog = screen.getByRole('dialog', { name: 'Вход' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Имя' }), 'pro');
    await userEvent.type(within(dialog).getByLabelText('Пароль'), 'wrong-password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Войти' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('неверное имя или пароль');
  });
});

describe('create account', () => {
  it('states the rules before submitting, checks them as the user types and sends nothing while they fail', async () => {
    const api = serve(account('pro', { pro: true }), { signedIn: false });
    await userEvent.click(within(await openSignIn()).getByRole('button', { name: 'Create an account' }));
    const dialog = screen.getByRole('dialog', { name: 'Create account' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    const password = within(dialog).getByLabelText('Password');
    expect(name).toHaveAccessibleDescription('3 to 32 characters: letters, digits, _ or -');
    expect(password).toHaveAccessibleDescription('8 to 200 characters, hard to guess: a few uncommon words work well');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(name).toHaveAttribute('aria-invalid', 'false');

    await userEvent.type(name, 'ab');
    expect(name).toHaveAccessibleDescription('The name must be 3 to 32 characters long');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(name, ' c');
    expect(name).toHaveAccessibleDescription('The name may use only Latin letters, digits, _ and -');
    await userEvent.type(password, 'short');
    expect(password).toHaveAccessibleDescription('The password must be 8 to 200 characters long');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(name).toHaveFocus();
    expect(api.requests).toEqual([]);

    await userEvent.clear(name);
    await userEvent.type(name, 'abc');
    expect(name).toHaveAccessibleDescription('3 to 32 characters: letters, digits, _ or -');
    expect(name).toHaveAttribute('aria-invalid', 'false');

    // The name inside the password is refused before anything is sent.
    await userEvent.clear(password);
    await userEvent.type(password, 'my-abc-password');
    expect(password).toHaveAccessibleDescription('The password must not contain your name');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(password).toHaveFocus();
    expect(api.requests).toEqual([]);
  });

  /** The server's answer to a guessable new password (server/routes/auth.ts sendWeakPassword). */
  const weakPassword = () =>
    http.post(`${BASE}/api/be/auth/register`, () =>
      HttpResponse.json(
        {
          error: 'weak_password',
          message: 'password is too easy to guess: This is a heavily used password. Add more words that are less common.',
          field: 'password',
          problem: 'guessable',
          warning: 'topTen',
          suggestions: ['anotherWord'],
        },
        { status: 400 },
      ),
    );

  it('says why the server refused a guessable password, keeps the dialog open and the caret in the password', async () => {
    serve(null, { signedIn: false });
    server.use(weakPassword());
    const dialog = await openCreateAccount();
    await fillAndSubmit(dialog, 'newcomer', 'password', 'Create account');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This password is too easy to guess. This is a heavily used password. Add more words that are less common.');
    expect(within(dialog).getByLabelText('Password')).toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Create account' })).toBeInTheDocument();
  });

  it('says why in Russian when the page is in Russian', async () => {
    serve(null, { signedIn: false });
    server.use(weakPassword());
    await setLanguage('ru');
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'Войти' }));
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    const dialog = screen.getByRole('dialog', { name: 'Новый аккаунт' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Имя' }), 'newcomer');
    await userEvent.type(within(dialog).getByLabelText('Пароль'), 'password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать аккаунт' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Этот пароль слишком легко угадать. Это один из самых распространённых паролей. Добавьте ещё несколько редких слов.');
  });

  it('names the wait when the server refuses more sign-ups (429)', async () => {
    serve(null, { signedIn: false });
    server.use(
      http.post(`${BASE}/api/be/auth/register`, () =>
        HttpResponse.json({ error: 'Too Many Requests', message: 'too many new accounts from your address; try again in 42 minute(s)' }, { status: 429, headers: { 'retry-after': '2520' } }),
      ),
    );
    const dialog = await openCreateAccount();
    await fillAndSubmit(dialog, 'newcomer', 'violet kettle drum', 'Create account');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('too many sign-ups just now; try again in 42 minutes');
  });

  it('shows the 409 message for a taken name, then creates the account with a free one', async () => {
    const api = serve(account('pro', { pro: true }), { signedIn: false });
    const dialog = await refusedTakenName();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveFocus();

    await userEvent.clear(name);
    await userEvent.type(name, 'newcomer');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    const button = await screen.findByRole('button', { name: 'newcomer' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requests.filter((r) => r === 'POST /api/be/auth/register')).toHaveLength(2);
    await userEvent.click(button);
    expect(screen.getByText('Free account, without pro')).toBeInTheDocument();
  });

  it('switches back to the sign-in form', async () => {
    serve(null);
    renderHome();
    await userEvent.click(await signInButton());
    await userEvent.click(screen.getByRole('button', { name: 'Create an account' }));
    await userEvent.click(screen.getByRole('button', { name: 'I already have an account' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign in' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).not.toHaveAccessibleDescription();
  });
});

describe('account menu', () => {
  it('opens a menu with the name, the role and "Sign out", focus on the first item', async () => {
    serve(account('pro', { pro: true }));
    renderHome();
    const button = await screen.findByRole('button', { name: 'pro Pro' });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: 'pro Pro' });
    expect(within(menu).getByRole('menuitem', { name: 'Sign out' })).toHaveFocus();
    expect(screen.getByText('Signed in as pro')).toBeInTheDocument();
    expect(screen.getByText('Pro account')).toBeInTheDocument();
  });

  it('closes on Escape (focus back on the button) and on a click outside', async () => {
    serve(account('pro', { pro: true }));
    renderHome();
    const button = await screen.findByRole('button', { name: 'pro Pro' });
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();

    await userEvent.click(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('heading', { name: 'raidmap', level: 1 }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens from the keyboard with the arrow keys', async () => {
    serve(account('pro', { pro: true }));
    renderHome();
    const button = await screen.findByRole('button', { name: 'pro Pro' });
    button.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toHaveFocus();
  });

  it('signs out: POST /api/be/auth/logout, then "Sign in" again with the focus on it', async () => {
    const api = serve(account('pro', { pro: true }));
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'pro Pro' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    const button = await signInButton();
    await waitFor(() => expect(button).toHaveFocus());
    expect(api.requests).toEqual(['GET /api/be/user', 'POST /api/be/auth/logout']);
    expect(session.user).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('signs out here even when the server cannot be told, and says so', async () => {
    serve(account('pro', { pro: true }));
    server.use(http.post(`${BASE}/api/be/auth/logout`, () => HttpResponse.json({ error: 'internal', message: 'database down' }, { status: 500 })));
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'pro Pro' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    // The server's kind of failure in the page's words, not its message or a status line.
    expect(await screen.findByRole('alert')).toHaveTextContent('You are signed out on this page, but the server could not be told (the server had a problem).');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(session.user).toBeNull();
    // Opening the sign-in dialog clears the notice.
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.queryByText(/server could not be told/)).toBeNull();
  });

  it('says an unreachable server in the page\'s language, not the browser\'s "Failed to fetch"', async () => {
    await setLanguage('ru');
    serve(account('pro', { pro: true }));
    server.use(http.post(`${BASE}/api/be/auth/logout`, () => HttpResponse.error()));
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'pro Pro' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Выйти' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('На этой странице вы вышли, но сервер не получил запрос (нет связи с сервером).');
    expect(alert).not.toHaveTextContent(/fetch|server/i);
  });
});

describe('the refusal shown in the dialog', () => {
  it('goes once the user changes the field it was about', async () => {
    serve(account('pro', { pro: true }), { signedIn: false });
    const dialog = await refusedTakenName();
    // The password is not what the refusal was about: it stays.
    const password = within(dialog).getByLabelText('Password');
    await userEvent.clear(password);
    await userEvent.type(password, 'newbie2123');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('the name "pro" is taken');
    // A new name: the refusal of the old one goes; the form's own check of the password shows.
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'newbie2');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByText('The password must not contain your name')).toBeInTheDocument();
  });

  it('goes when the form\'s own checks stop the next try', async () => {
    const api = serve(account('pro', { pro: true }), { signedIn: false });
    const dialog = await refusedTakenName();
    const password = within(dialog).getByLabelText('Password');
    await userEvent.clear(password);
    await userEvent.type(password, 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByText('The password must be 8 to 200 characters long')).toBeInTheDocument();
    expect(api.requests.filter((r) => r === 'POST /api/be/auth/register')).toHaveLength(1);
  });

  it('of a wrong password goes once either field changes', async () => {
    serve(account('pro', { pro: true }), { signedIn: false });
    const dialog = await openSignIn();
    await fillAndSubmit(dialog, 'pro', 'not-the-password', 'Sign in');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('wrong name or password');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'x');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});

describe('the name as typed or pasted', () => {
  it('signs in with spaces around the name (the name is sent trimmed, the password as typed)', async () => {
    const bodies: unknown[] = [];
    const api = serve(account('pro', { pro: true }), { signedIn: false });
    server.use(
      http.post(`${BASE}/api/be/auth/login`, async ({ request }) => {
        bodies.push(await request.clone().json());
      }),
    );
    const dialog = await openSignIn();
    await fillAndSubmit(dialog, '  pro  ', PASSWORD, 'Sign in');
    expect(await screen.findByRole('button', { name: 'pro Pro' })).toBeInTheDocument();
    expect(bodies).toEqual([{ name: 'pro', password: PASSWORD }]);
    expect(api.requests).toEqual(['POST /api/be/auth/login']);
  });

  it('creates an account from a name with spaces around it', async () => {
    serve(null, { signedIn: false });
    const dialog = await openCreateAccount();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), ' spaced ');
    expect(within(dialog).queryByText('The name may use only Latin letters, digits, _ and -')).toBeNull();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'violet kettle drum');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('button', { name: 'spaced' })).toBeInTheDocument();
  });

  it('longer than any account\'s is stopped on the sign-in form, in the page\'s language, with nothing sent', async () => {
    await setLanguage('ru');
    const api = serve(account('pro', { pro: true }), { signedIn: false });
    renderHome();
    await userEvent.click(await screen.findByRole('button', { name: 'Войти' }));
    const dialog = screen.getByRole('dialog', { name: 'Вход' });
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Имя' }));
    await userEvent.paste('a'.repeat(250));
    await userEvent.type(within(dialog).getByLabelText('Пароль'), PASSWORD);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Войти' }));
    expect(within(dialog).getByText('Имя должно быть длиной от 3 до 32 символов')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Имя' })).toHaveFocus();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(api.requests).toEqual([]);
  });
});

describe('a session that ended', () => {
  const ENDED_PRO = 'Your session has ended — sign in again to keep your Pro quests.';

  /** A reload after a pro session ended: the browser remembers a pro user, the server knows nobody signed in. */
  function proSessionEnded() {
    writeStored(SIGNED_IN_ROLE_KEY, 'pro');
    return serve(account('pro', { pro: true }), { signedIn: false });
  }

  it('says so as the page loads, in the sign-in dialog, read with the name field', async () => {
    proSessionEnded();
    renderHome();
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(within(dialog).getByText(ENDED_PRO)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(ENDED_PRO);
  });

  it('signs back in from there', async () => {
    proSessionEnded();
    renderHome();
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    await fillAndSubmit(dialog, 'pro', PASSWORD, 'Sign in');
    expect(await screen.findByRole('button', { name: 'pro Pro' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(session.ended).toBe(false);
  });

  it('is said once: given up (Escape), a later "Sign in" is a plain one', async () => {
    proSessionEnded();
    renderHome();
    await screen.findByRole('dialog', { name: 'Sign in' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readStored(SIGNED_IN_ROLE_KEY)).toBeNull();
    await userEvent.click(await signInButton());
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(within(dialog).queryByText(ENDED_PRO)).toBeNull();
  });

  it('says it in Russian on a Russian page, and not on the create-account form', async () => {
    await setLanguage('ru');
    proSessionEnded();
    renderHome();
    const dialog = await screen.findByRole('dialog', { name: 'Вход' });
    expect(within(dialog).getByText('Сеанс завершён — войдите снова, чтобы сохранить квесты, выбранные с Pro.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Зарегистрироваться' }));
    const signUp = await screen.findByRole('dialog', { name: 'Новый аккаунт' });
    expect(within(signUp).queryByText(/Сеанс завершён/)).toBeNull();
  });

  it('says why when a quest action found the session ended', async () => {
    serve(null);
    renderHome();
    await signInButton();
    act(() => {
      session.signInReason = 'saveAction';
      openAccountDialog('signIn');
    });
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(within(dialog).getByText('Your session has ended. Sign in to save this.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(session.signInReason).toBeNull();
  });

  it('after the sign-in a quest action asked for, gives the focus back to the control that was pressed', async () => {
    serve(account('pro', { pro: true }), { signedIn: false });
    renderHome();
    await signInButton();
    // Stands for the quest's "Complete" button: it had the focus when the action found the session ended.
    const pressed = document.body.appendChild(document.createElement('button'));
    pressed.textContent = 'Complete: Debut';
    pressed.focus();
    act(() => {
      session.signInReason = 'saveAction';
      openAccountDialog('signIn');
    });
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    await fillAndSubmit(dialog, 'pro', PASSWORD, 'Sign in');
    const button = await screen.findByRole('button', { name: 'pro Pro' });
    await waitFor(() => expect(pressed).toHaveFocus());
    // Still so once every effect has run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pressed).toHaveFocus();
    expect(button).not.toHaveFocus();
    pressed.remove();
  });

  it('asks nothing of a visitor who signed out', async () => {
    const api = serve(null);
    renderHome();
    expect(await signInButton()).toBeEnabled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requests).toEqual([]);
  });
});

import '../../i18n';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '../../i18n';
import { editor, noteGoneWhileMoving, resetEditor } from '../../state/editor';
import { GoneWhileMovingNotice } from './GoneWhileMovingNotice';

afterEach(async () => {
  resetEditor();
  if (i18n.language !== 'en') await setLanguage('en');
});

describe('GoneWhileMovingNotice', () => {
  it('shows nothing while no dragged marker was deleted', () => {
    const { container } = render(<GoneWhileMovingNotice />);
    expect(container).toBeEmptyDOMElement();
  });

  it('says another admin deleted the marker being moved, by its type, until OK', async () => {
    render(<GoneWhileMovingNotice />);
    act(() => noteGoneWhileMoving('m1', 'Safe'));
    expect(await screen.findByRole('status')).toHaveTextContent('Another admin deleted the “Safe” marker you were moving, so it was not moved.');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(editor.goneWhileMoving).toBeNull();
  });

  it('says it without a type the page no longer knew, and in Russian', async () => {
    await setLanguage('ru');
    render(<GoneWhileMovingNotice />);
    act(() => noteGoneWhileMoving('m1', null));
    expect(await screen.findByRole('status')).toHaveTextContent('Другой админ удалил метку, которую вы перемещали, поэтому она не перемещена.');
    act(() => noteGoneWhileMoving('m1', 'Safe'));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Другой админ удалил метку «Сейф», которую вы перемещали'));
  });
});

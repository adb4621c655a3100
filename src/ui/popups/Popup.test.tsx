import '../../i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Popup } from './Popup';

describe('Popup', () => {
  it('is a dialog named by its title, with a Close button', async () => {
    const onClose = vi.fn();
    render(
      <Popup title="Help" onClose={onClose} maxWidth={280}>
        <p>Body text</p>
      </Popup>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Help' });
    expect(dialog).toHaveTextContent('Body text');
    expect(dialog).toHaveStyle({ maxWidth: '280px' });
    expect(dialog).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape, only the popup opened last', async () => {
    function Two() {
      const [outer, setOuter] = useState(true);
      const [inner, setInner] = useState(true);
      return (
        <>
          {outer && (
            <Popup title="Outer" onClose={() => setOuter(false)}>
              outer
            </Popup>
          )}
          {inner && (
            <Popup title="Inner" onClose={() => setInner(false)}>
              inner
            </Popup>
          )}
        </>
      );
    }
    render(<Two />);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Outer' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on a click on the backdrop but not inside', async () => {
    const onClose = vi.fn();
    const { container } = render(
      <Popup title="Help" onClose={onClose}>
        <p>Inside</p>
      </Popup>,
    );
    await userEvent.click(screen.getByText('Inside'));
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.click(container.querySelector('.popup-backdrop') as HTMLElement);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('gives the focus back to what had it on close where the focus was in the popup, and leaves it where the user took it since', async () => {
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Opener
          </button>
          {/* As the tools panel's Undo, whose undo closes the marker popup. */}
          <button type="button" onClick={() => setOpen(false)}>
            Undo
          </button>
          {open && (
            <Popup title="Marker" backdrop={false} onClose={() => setOpen(false)}>
              <p>Body</p>
            </Popup>
          )}
        </>
      );
    }
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Opener' });
    const undoButton = screen.getByRole('button', { name: 'Undo' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Marker' })).toHaveFocus();
    // Closed from inside (its Close): back to the opener.
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(opener).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Marker' })).toHaveFocus();
    // The user goes on elsewhere (Undo), whose press closes the popup: the focus stays on Undo.
    undoButton.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(undoButton).toHaveFocus();
  });
});

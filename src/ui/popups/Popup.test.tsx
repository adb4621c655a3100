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
});

// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmByNameModal } from './ConfirmByNameModal';

function renderModal(onConfirm: () => unknown, onCancel = vi.fn()) {
  render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <ConfirmByNameModal
        open
        title="Delete organization"
        description="This cannot be undone."
        name="Radiology"
        confirmLabel="Delete organization"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    </ConfigProvider>,
  );
  return { onCancel };
}

function dangerButton() {
  return screen.getAllByRole('button', { name: 'Delete organization' }).at(-1) as HTMLButtonElement;
}

describe('ConfirmByNameModal', () => {
  it('keeps the danger button disabled until the exact name is typed', async () => {
    const onConfirm = vi.fn();
    renderModal(onConfirm);
    const user = userEvent.setup();
    const input = screen.getByPlaceholderText('Type the name exactly');
    expect(screen.getByText('Radiology').tagName).toBe('STRONG');
    expect(dangerButton().disabled).toBe(true);

    await user.type(input, 'radiology');
    expect(dangerButton().disabled).toBe(true);
    expect(screen.getByText('The name does not match.')).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();

    await user.clear(input);
    await user.type(input, 'Radio');
    expect(screen.queryByText('The name does not match.')).toBeNull();
    await user.type(input, 'logy');
    expect(dangerButton().disabled).toBe(false);
    await user.click(dangerButton());
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('confirms with Enter and stays open for another try when the call fails', async () => {
    const onConfirm = vi.fn().mockRejectedValueOnce(new Error('refused')).mockResolvedValueOnce(undefined);
    renderModal(onConfirm);
    const user = userEvent.setup();
    await user.type(screen.getByPlaceholderText('Type the name exactly'), 'Radiology{Enter}');
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    expect(screen.getByPlaceholderText('Type the name exactly')).toHaveProperty('value', 'Radiology');
    await user.click(dangerButton());
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(2));
  });

  it('cancels', async () => {
    const { onCancel } = renderModal(vi.fn());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });
});

import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { initTestI18n } from '../../testing/i18n-test';
import { MODAL_CLOSE_MS } from '../../config/constants';
import { Modal, ModalSize } from './modal';

beforeAll(async () => {
  await initTestI18n();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Modal', () => {
  test('an open modal is a labelled dialog', () => {
    render(
      <Modal isOpen onClose={() => undefined} title="Accounts Balance" size={ModalSize.S}>
        body
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Accounts Balance' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveClass('modal-s');
  });

  test.each(Object.values(ModalSize))('size %s gives its class', (size) => {
    render(
      <Modal isOpen onClose={() => undefined} title="T" size={size}>
        x
      </Modal>,
    );
    expect(screen.getByRole('dialog')).toHaveClass(`modal-${size}`);
  });

  test('a closed modal renders nothing', () => {
    render(
      <Modal isOpen={false} onClose={() => undefined} title="Hidden">
        x
      </Modal>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('closing keeps it mounted in a closing state, then unmounts it after the close animation', () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <Modal isOpen onClose={() => undefined} title="Closing">
        x
      </Modal>,
    );
    rerender(
      <Modal isOpen={false} onClose={() => undefined} title="Closing">
        x
      </Modal>,
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByTestId('modal-overlay')).toHaveClass('is-closing');
    act(() => {
      vi.advanceTimersByTime(MODAL_CLOSE_MS - 1);
    });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('reopening during the closing state shows it open again', () => {
    vi.useFakeTimers();
    const view = (isOpen: boolean) => (
      <Modal isOpen={isOpen} onClose={() => undefined} title="Again">
        x
      </Modal>
    );
    const { rerender } = render(view(true));
    rerender(view(false));
    rerender(view(true));
    act(() => {
      vi.advanceTimersByTime(MODAL_CLOSE_MS * 2);
    });
    expect(screen.getByTestId('modal-overlay')).not.toHaveClass('is-closing');
  });

  test('a click on the overlay closes it; a click inside does not', () => {
    const onClose = vi.fn();
    render(
      <Modal isOpen onClose={onClose} title="Overlay">
        <p>inside</p>
      </Modal>,
    );
    fireEvent.mouseDown(screen.getByText('inside'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.mouseDown(screen.getByTestId('modal-overlay'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  test('Escape and the close button close it', () => {
    const onClose = vi.fn();
    render(
      <Modal isOpen onClose={onClose} title="Keys">
        x
      </Modal>,
    );
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

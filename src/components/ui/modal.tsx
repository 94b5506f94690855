import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { MODAL_CLOSE_MS } from '../../config/constants';
import './modal.css';

export const ModalSize = { XS: 'xs', S: 's', M: 'm', L: 'l', XL: 'xl' } as const;
export type ModalSize = (typeof ModalSize)[keyof typeof ModalSize];

type Phase = 'open' | 'closing' | 'closed';

export interface ModalProps {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  size?: ModalSize;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * Dialog of SPEC.md §2: opening shows it; closing keeps it mounted for MODAL_CLOSE_MS in a closing state
 * (the fade-out), then unmounts it; a click on the overlay or Escape closes it.
 */
export function Modal({ isOpen, onClose, title, size = ModalSize.M, children, footer }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>(isOpen ? 'open' : 'closed');
  const [wasOpen, setWasOpen] = useState(isOpen);
  if (isOpen !== wasOpen) {
    setWasOpen(isOpen);
    setPhase(isOpen ? 'open' : 'closing');
  }

  useEffect(() => {
    if (phase !== 'closing') return;
    const timer = setTimeout(() => setPhase('closed'), MODAL_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  // Focus moves into the dialog on open and back to where it was on unmount.
  useEffect(() => {
    if (phase !== 'open') return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    const firstField = dialog?.querySelector<HTMLElement>('input, select, textarea');
    (firstField ?? dialog)?.focus();
    return () => previous?.focus();
  }, [phase]);

  useEffect(() => {
    if (phase !== 'open') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [phase, onClose]);

  if (phase === 'closed') return null;
  return createPortal(
    <div
      className={`modal-overlay${phase === 'closing' ? ' is-closing' : ''}`}
      data-testid="modal-overlay"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className={`modal modal-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="modal-header">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
            <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
              <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {/* Focusable, so a keyboard can scroll a long body with nothing focusable in it. */}
        <div className="modal-body" tabIndex={0}>
          {children}
        </div>
        {footer ? <div className="modal-footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}

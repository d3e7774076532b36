/**
 * Asks before something that cannot be undone (delete, revoke): a modal <dialog> that names what
 * will happen; Escape or Cancel keeps everything as it was.
 */
import { useEffect, useId, useRef } from 'preact/hooks';
import { defineTexts } from '../i18n.js';

const texts = defineTexts({
  en: { cancel: 'Cancel' },
  ja: { cancel: 'キャンセル' },
});

export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}) {
  const t = texts();
  const dialog = useRef<HTMLDialogElement>(null);
  // Several dialogs may be on one page (one per row): each names itself by its own heading.
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog ref={dialog} class="dialog" aria-labelledby={titleId} onCancel={props.onCancel}>
      <h2 id={titleId}>{props.title}</h2>
      <p>{props.message}</p>
      <div class="dialog-actions">
        <button type="button" class="button" onClick={props.onCancel}>
          {t.cancel}
        </button>
        <button type="button" class="button button-danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

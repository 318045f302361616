import type { ReactNode } from 'react';
import { t } from '../i18n';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';

interface Question {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** Keeps the confirming button disabled (e.g. until the user typed the name of what goes). */
  isConfirmDisabled?: boolean;
  /** The button that keeps things as they are ("Cancel" unless said). */
  cancelLabel?: string;
}

/** The modal itself: open while its trigger (or `isOpen`, when given) says so. */
function ConfirmOverlay(props: Question & { isOpen?: boolean; onOpenChange?: (open: boolean) => void }) {
  return (
    <ModalOverlay className="modal-overlay" isDismissable isOpen={props.isOpen} onOpenChange={props.onOpenChange}>
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          {({ close }) => (
            <>
              <Heading slot="title">{props.title}</Heading>
              {props.children}
              <div className="dialog-actions">
                <Button className="secondary" onPress={close} autoFocus>
                  {props.cancelLabel ?? t('common.cancel')}
                </Button>
                <Button
                  className="danger"
                  isDisabled={props.isConfirmDisabled}
                  onPress={() => {
                    close();
                    props.onConfirm();
                  }}
                >
                  {props.confirmLabel}
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/**
 * A destructive action asked in a modal dialog (React Aria: focus trapped inside, Escape cancels,
 * focus returns to the button that opened it).
 */
export function ConfirmDialog(props: Question & { label: string; isDisabled?: boolean; className?: string; ariaLabel?: string }) {
  return (
    <DialogTrigger>
      <Button className={props.className ?? 'danger'} isDisabled={props.isDisabled} aria-label={props.ariaLabel}>
        {props.label}
      </Button>
      <ConfirmOverlay {...props} />
    </DialogTrigger>
  );
}

/** The same question opened by something other than its own button (a menu item): open while `isOpen`. */
export function ConfirmModal(props: Question & { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  return <ConfirmOverlay {...props} />;
}

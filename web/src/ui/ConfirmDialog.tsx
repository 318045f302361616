import type { ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';

/**
 * A destructive action asked in a modal dialog (React Aria: focus trapped inside, Escape cancels,
 * focus returns to the button that opened it).
 */
export function ConfirmDialog(props: {
  label: string;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  isDisabled?: boolean;
  /** Keeps the confirming button disabled (e.g. until the user typed the name of what goes). */
  isConfirmDisabled?: boolean;
  className?: string;
}) {
  return (
    <DialogTrigger>
      <Button className={props.className ?? 'danger'} isDisabled={props.isDisabled}>
        {props.label}
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog role="alertdialog" className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">{props.title}</Heading>
                {props.children}
                <div className="dialog-actions">
                  <Button className="secondary" onPress={close} autoFocus>
                    Cancel
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
    </DialogTrigger>
  );
}

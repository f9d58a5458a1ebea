/* The real message, notification and modal instances behind lib/feedback (a chunk of its own). */
import { ERROR_TOAST_MS, ERROR_TOAST_OFFSET, NOTIFICATION_MS } from '@forpost/contract/http-constants';
import { Modal, message, notification } from 'antd';
import { Fragment, useLayoutEffect } from 'react';
import { bindFeedback } from '../../lib/feedback';

const MESSAGE = { top: ERROR_TOAST_OFFSET, duration: ERROR_TOAST_MS / 1000, maxCount: 3 };
const NOTIFICATION = { duration: NOTIFICATION_MS / 1000, placement: 'topRight' as const };

export default function FeedbackHost() {
  const [messageApi, messageHolder] = message.useMessage(MESSAGE);
  const [notificationApi, notificationHolder] = notification.useNotification(NOTIFICATION);
  const [modalApi, modalHolder] = Modal.useModal();
  useLayoutEffect(() => {
    bindFeedback({ message: messageApi, notification: notificationApi, modal: modalApi });
    return () => bindFeedback(null);
  }, [messageApi, notificationApi, modalApi]);
  return (
    <Fragment>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </Fragment>
  );
}

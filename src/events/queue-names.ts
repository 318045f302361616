/** Every BullMQ queue of the service, in one place. */
export enum QueueName {
  /** Transactional emails (invitations, notifications). */
  Email = 'email',
}

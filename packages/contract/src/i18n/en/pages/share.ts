// The owner's ticket shares in English (apps/web/src/guest/share/; docs/i18n.md): the section
// under the pass, its modal, and what each share call's failure says.
export default {
  heading: 'Manage Ticket Shares',
  intro: 'Share this card with family and friends: each guest gets their own link to the pass by email.',
  loading: 'Loading guests…',
  empty: 'This ticket is not shared with anyone yet.',
  list: 'Guests this ticket is shared with',
  modify: 'Modify',
  modifyWith: 'Modify share with {name}',
  add: 'Share With a Guest',
  close: 'Close',
  newTitle: 'Set Up Ticket Share',
  editTitle: 'Modify Ticket Share',
  newIntro: 'We will email the guest their own link to this pass.',
  editIntro: 'Change the guest’s details. A new email address gets a new link, and the old link stops working.',
  requiredNote: 'Fields marked * are required.',
  start: 'Start Sharing',
  update: 'Update Info',
  stop: 'Stop Sharing',
  cancel: 'Cancel',
  sharing: 'Sharing…',
  updating: 'Updating…',
  stopping: 'Stopping…',
  created: 'Share successful',
  updated: 'Update successful',
  deleted: 'Guest removed',
  /** 408: the share token (30 minutes) ran out. */
  expired: 'This ticket sharing session has expired. Please refresh and try again.',
  /** Each call's failure: no answer (networkError), any other (failure). */
  calls: {
    list: { failure: 'Unable to retrieve guests', networkError: 'Error retrieving guests' },
    create: { failure: 'Unable to share with guest', networkError: 'Error sharing with guest' },
    update: { failure: 'Unable to update', networkError: 'Error updating' },
    delete: { failure: 'Unable to unshare with guest', networkError: 'Error unsharing with guest' },
  },
  /** 400: the ticket has its TICKET_SHARE_LIMIT active shares. */
  limitReached: 'A ticket can be shared with at most {limit, number} guests.',
  /** 429: the ticket's TICKET_SHARE_MAILS_PER_DAY share mails for the park day are sent. */
  mailLimitReached: 'This ticket has sent its {limit, number} share emails for today. Try again after 2 AM (park time).',
} as const;

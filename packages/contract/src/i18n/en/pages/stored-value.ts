// The stored-value page's words in English (docs/i18n.md): a Stored Value Card's balance and
// today's attractions.
export default {
  heading: 'Stored Value Card',
  loading: 'Loading your card…',
  credits: 'Credits',
  cash: 'Cash',
  todayHeading: 'Today’s Attractions',
  time: 'Time',
  attraction: 'Attraction',
  location: 'Location',
  empty: 'No attractions visited with this card yet today.',
  /** The history covers only the current operating day, which starts at 2:00 AM park time. */
  resets: 'Attraction history covers only the current operating day and resets at <nowrap>2:00 AM</nowrap>.',
  failureHeading: 'Unable to retrieve ticket card data',
  failureText: 'This may be a problem with your card or with our systems, please try again later.',
  tryAgain: 'Try Again',
} as const;

// The words every guest page shares: the page's title, its frame (header, footer), the
// language switch, the page not found, the offline note.
export default {
  /** The page's title and description, in its head. */
  title: 'Your Pass',
  description: 'Find your ticket or pass and add it to your digital wallet.',
  skipToContent: 'Skip to content',
  /** The brand link's name until the brand name has loaded. */
  home: 'Home',
  help: 'Need help? Email <email>{supportEmail}</email> or visit guest services.',
  privacyLink: 'Your data and privacy',
  /** The switch between the guest languages: its name, and each language in its own words. */
  languages: { label: 'Language', en: 'English', es: 'Español' },
  /** A guest area's page while its code loads. */
  loading: 'Loading...',
  notFound: {
    heading: 'Page not found',
    text: 'There is nothing at this address. Check the link, or look up your ticket or pass from the home page.',
    home: 'Go to the home page',
  },
  /** How the pages write amounts and times (lib/format.ts). */
  formats: {
    credits: '{credits, plural, one {# Credit} other {# Credits}}',
    shownToday: 'at {time}',
    shownBefore: 'on {day} at {time}',
  },
  offline: 'Offline: shown as it was <when>{shownAt}</when>',
  /** A page that emails the guest a link (the statement, the privacy request; loyalty/email-link-request.tsx). */
  emailLink: {
    email: 'Email',
    submit: 'Email Me a Link',
    busy: 'Sending...',
    sentHeading: 'Check Your Email',
    another: 'Use Another Email',
  },
} as const;

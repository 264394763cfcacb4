// The wallet pages' words in English (docs/i18n.md).
export default {} as const;

/** The months' names in English, January first: the one list every layer reads. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The weekdays' names in English, Sunday first (as `Date.getUTCDay` counts). */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The months' names in lower case ("january"), January first. */
export const MONTH_WORDS: readonly string[] = MONTH_NAMES.map((name) => name.toLowerCase());

/** The weekdays' names in lower case ("sunday"), Sunday first. */
export const WEEKDAY_WORDS: readonly string[] = WEEKDAY_NAMES.map((name) => name.toLowerCase());

/** An alternation of the months' names for a regular expression ("January|February|…"), capitalised as written. */
export const MONTH_ALTERNATION = MONTH_NAMES.join('|');

/** An alternation of the weekdays' names, Monday first ("Monday|…|Sunday"), capitalised as written. */
export const WEEKDAY_ALTERNATION = [...WEEKDAY_NAMES.slice(1), WEEKDAY_NAMES[0]].join('|');

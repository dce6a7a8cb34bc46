/** The limits of SPEC.md section 8 and DECISIONS.md, in one place for the schemas, the server and the clients. */
export const LIMITS = {
  spaceChars: 128,
  textChars: 2_000_000,
  urlMinChars: 4,
  urlMaxChars: 2_000,
  messages: 500,
  titleChars: 300,
  batchItems: 100,
  correctionChars: 2_000,
  questionChars: 2_000,
  contextLimit: { min: 1, max: 50, default: 12 },
  searchLimit: { min: 1, max: 50, default: 10 },
  memoriesListLimit: { min: 1, max: 200, default: 50 },
  filesListLimit: { min: 1, max: 200, default: 100 },
  sourcesListLimit: { min: 1, max: 200, default: 100 },
  episodesListLimit: { min: 1, max: 200, default: 20 },
  lessonsListLimit: { min: 1, max: 200, default: 50 },
  intentionsListLimit: { min: 1, max: 200, default: 50 },
  briefListLimit: { min: 1, max: 200, default: 60 },
  /** Nodes of GET /v1/graph: most memories first, up to this cap. */
  graphNodeLimit: { min: 1, max: 1_000, default: 200 },
  spacesListLimit: { min: 1, max: 200, default: 100 },
  filePathChars: 255,
  fileLabels: 20,
  deleteByPrefix: 100,
  sourceWaitSeconds: { min: 0, max: 60, default: 0 },
  briefingBudgetChars: { min: 500, max: 40_000, default: 6_000 },
  briefingCueChars: 4_000,
  projectChars: 200,
  subjectChars: 200,
  keyNameChars: 100,
  keyExpiresAtChars: 40,
  keyRpm: { min: 1, max: 600, default: 600 },
  minLearnedTokensPerSave: 100,
  usageNearShare: 0.8,
  trialDays: 14,
  /** USD per million learned tokens and per 1,000 answers of extra learning. */
  extraPriceUsd: { perMillionTokens: 15, perThousandAnswers: 15 },
  /** Default upload limit of POST /v1/memories/file (DECISIONS.md). */
  uploadBytes: 25 * 1024 * 1024,
} as const;

/** The exact context text when nothing stored bears on a question (SPEC.md, context rule 2). */
export const EMPTY_CONTEXT = 'There is nothing stored about this yet. Say so rather than guessing.';

/** Key prefixes (DECISIONS.md): account keys and keys limited to one space. */
export const KEY_PREFIX = { account: 'egk_', limited: 'egs_' } as const;

/** How many leading characters of a key are shown as `starts_with`. */
export const KEY_STARTS_WITH_CHARS = 8;

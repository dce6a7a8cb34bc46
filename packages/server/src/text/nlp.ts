import nlp from 'compromise';

/**
 * compromise, as Engram runs it. Parsing a text runs a list of steps (`world.hooks`); the last
 * two Engram never reads: "typeahead" completes words from a list only a plugin fills, and
 * "chunks" groups the tagged terms into noun and verb phrases, which only compromise's phrase
 * methods (`.nouns()`, `.verbs()`) use. Engram reads each term's text, normal form and tags, which
 * are the same without them (every LoCoMo message tagged both ways: none differs), and a message is
 * parsed about a fifth faster (docs/benchmarks.md, "compromise without the steps Engram never
 * reads"). Every module imports compromise from here, so that the learner threads parse as the
 * API's thread does.
 */
const UNREAD_STEPS = new Set(['typeahead', 'chunks']);
const world = nlp.world() as unknown as { hooks: string[] };
world.hooks = world.hooks.filter((step) => !UNREAD_STEPS.has(step));

export default nlp;

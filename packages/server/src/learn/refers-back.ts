/**
 * Third-person pronouns a fact leans on for what it is about ("It leaks a little.", "They were
 * so kind."): the learner names the people talking, never the thing or the others a pronoun
 * stands for, and in a reply that is most often what the message before named. "their" is left
 * out: the learner writes it for a speaker's own "my" ("Ana lost their keys").
 */
const REFERRING = /\b(?:it|its|they|them|those|these|she|he|her|him)\b/i;

/**
 * Whether a fact's text refers back by a pronoun (REFERRING) to something it does not name.
 * Such a fact of a reply takes the message it answers as the rest of its own message (weight C),
 * as a reply's first fact does, rather than at the lowest weight (D): "Ben said it leaks a
 * little." is about the kayak the message before told of, wherever it stands in the reply.
 */
export function refersBack(text: string): boolean {
  return REFERRING.test(text);
}

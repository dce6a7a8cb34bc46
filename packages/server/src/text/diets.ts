/** Diets a person keeps, one at a time ("Omar is vegan" until "Omar is pescatarian now"): learn/slots.ts and recall/ask.ts. */
export const DIETS = [
  'vegan',
  'vegetarian',
  'pescatarian',
  'pescetarian',
  'flexitarian',
  'plant-based',
  'carnivore',
  'omnivore',
  'keto',
  'paleo',
];

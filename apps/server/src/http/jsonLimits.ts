/** Deepest nesting of objects and arrays a request body may have; the API's bodies need four. */
export const MAX_BODY_DEPTH = 16;

/**
 * How deeply the objects and arrays of a JSON text nest, counted without parsing it (brackets
 * inside strings do not count). Stops counting at `stopAt`, so a hostile text costs one pass at
 * most. Validators walk parsed values recursively; a text this says is too deep never reaches one.
 */
export function jsonDepth(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest >= stopAt) return deepest;
      }
    } else if (c === 125 || c === 93) {
      depth -= 1;
    }
  }
  return deepest;
}

import { enAreas } from './en.areas';
import { enCore } from './en.core';

/** English texts, the reference language: Slovak and German must provide every key. */
export const en = { ...enCore, ...enAreas } as const;

/** Shape every translation must have: same keys, any text. */
type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Translation = Widen<typeof en>;

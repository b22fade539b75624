/** The shape of a message tree with every text widened to string: what each language must fill in. */
export type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

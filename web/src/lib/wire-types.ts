/**
 * A response type of the wire contract whose `K` fields a 0.7.3 server does
 * not send: the app talks to those servers too, so it must not rely on them.
 */
export type AbsentOn073<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

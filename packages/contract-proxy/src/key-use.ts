/** The two kinds of API key of the payments contract: each operation takes one (its security scheme). */
export type KeyType = 'secret' | 'publishable';

/** The key a request used, as a recording may hold it: a name for the key (never the key) and its type if known. */
export interface KeyUse {
  /** `key-1`, `key-2`...: the same key gets the same alias for the whole session. */
  alias: string;
  type?: KeyType;
}

/** A signed-in user, from a bearer token. */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  sessionId: string;
  roles: readonly string[];
}

/** A developer API key, held to its scopes, restrictions and quotas. */
export interface KeyPrincipal {
  kind: 'key';
  keyId: string;
  /**
   * The user who owns the key (who made its organization, project and key): the user a key acts for on the
   * user-data endpoints that accept a key (spec part 1 §4.3). Absent only from key lookups that know no owners.
   */
  ownerId?: string;
}

/** Who is calling, as established by the edge's guards; services act for it and scope every query to it. */
export type Principal = UserPrincipal | KeyPrincipal;

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
}

/** Who is calling, as established by the edge's guards; services act for it and scope every query to it. */
export type Principal = UserPrincipal | KeyPrincipal;

/** A sign-in session of a user (what a bearer token belongs to), as the services read and the store keeps it. */
export interface SignInSessionRecord {
  id: string;
  userId: string;
  ipAddress: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

/** A developer API key as the services read and the store keeps it: never the secret, only its last four characters. */
export interface ApiKeyRecord {
  id: string;
  projectId: string;
  label: string;
  lastFour: string;
  scopes: Record<string, boolean>;
  plan: string;
  quotaPerMinute: number;
  quotaPerDay: number;
  unlimited: boolean;
  active: boolean;
  restrictions: { referrers: string[]; ips: string[] };
  createdAt: string;
  lastUsedAt: string | null;
}

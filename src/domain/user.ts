/** A user account as the services read and the store keeps it (spec part 1). */

export interface Avatar {
  type: 'image' | 'emoji' | 'letter';
  value: string;
  bgColor?: string;
}

export interface Privacy {
  saveHistory?: boolean;
  personalization?: boolean;
  shareAnalytics?: boolean;
  useLocation?: boolean;
}

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  roles: string[];
  avatar: Avatar | null;
  privacy: Privacy | null;
  disabled: boolean;
  createdAt: string;
}

// Tables of the accounts domain: people, their API tokens and their screen sessions.
// Times are IsoTime text (see ../time.ts); secrets are stored only as SHA-256 hex.
export interface AccountsTable {
  account_number: number;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
}

export interface ApiTokensTable {
  id: string;
  account_number: number;
  token_hash: string;
  prefix: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ScreenSessionsTable {
  id_hash: string;
  account_number: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface AccountsTables {
  accounts: AccountsTable;
  api_tokens: ApiTokensTable;
  screen_sessions: ScreenSessionsTable;
}

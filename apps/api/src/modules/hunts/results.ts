import type { HuntMatch } from './matcher';

/**
 * A hunt's match as the «Аккаунты» module's input (what the event write path takes, fingerprint `login` +
 * `leak_name`) and the verdict kept beside it. Nothing here holds the password: the match carries only its
 * masked form, HMAC and class.
 */
export interface AccountFinding {
  companyId: number;
  input: {
    login: string;
    email?: string;
    password_kind: 'plain' | 'hash' | 'none';
    leak_name: string;
    service?: string;
    leaked_at?: string;
  };
  verdict: {
    masked: string | null;
    length: number | null;
    hmac: string | null;
    strength: string | null;
    hash_type: string | null;
    salted: boolean;
  };
  corporateUrl: boolean;
  via: string[];
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function accountFinding(m: HuntMatch, leak: { name: string; leakedAt?: string | null }): AccountFinding {
  const login = m.login.slice(0, 320);
  const input: AccountFinding['input'] = { login, password_kind: m.passwordKind, leak_name: leak.name };
  if (EMAIL.test(login)) input.email = login.toLowerCase();
  if (m.service) input.service = m.service.slice(0, 500);
  if (leak.leakedAt) input.leaked_at = leak.leakedAt;
  return {
    companyId: m.companyId,
    input,
    verdict: {
      masked: m.verdict && m.passwordKind === 'plain' ? m.verdict.masked : null,
      length: m.verdict && m.passwordKind === 'plain' ? m.verdict.length : null,
      hmac: m.verdict?.hmac ?? null,
      strength: m.verdict?.strength ?? null,
      hash_type: m.hashType,
      salted: m.salted,
    },
    corporateUrl: m.corporateUrl,
    via: m.via,
  };
}

import { WHITELIST_KIND_LABELS, type WhitelistKind } from '@forpost/contract/whitelist';
import { Tag } from 'antd';

const KIND_COLORS: Record<WhitelistKind, string | undefined> = {
  whitelistClient: 'green',
  whitelistPartner: 'cyan',
  undefined: undefined,
};

export const kindOptions = (Object.keys(WHITELIST_KIND_LABELS) as WhitelistKind[]).map((k) => ({
  value: k,
  label: WHITELIST_KIND_LABELS[k],
}));

export function KindTag({ kind }: { kind: WhitelistKind }) {
  return (
    <Tag color={KIND_COLORS[kind]} style={{ marginInlineEnd: 0 }}>
      {WHITELIST_KIND_LABELS[kind]}
    </Tag>
  );
}

/** Placeholder of the value input per type. */
export const VALUE_PLACEHOLDERS = {
  domain: 'example.ru или пример.рф',
  url: 'https://example.ru/path',
  email: 'security@example.ru',
  ip: '192.0.2.10, 198.51.100.0/24 или 2001:db8::/32',
  name: 'ООО «Ромашка»',
  inn: '7707083893',
} as const;

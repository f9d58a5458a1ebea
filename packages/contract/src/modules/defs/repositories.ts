import { TAKEDOWN_DECISIONS } from '../common';
import { field } from '../fields';
import { section } from '../sections';
import type { ModuleDescriptor } from '../types';

export const repositories: ModuleDescriptor<'repositories'> = {
  ...section('repositories'),
  description: 'Исходный код и секреты компании в публичных репозиториях.',
  fields: [
    field.url('repo_url', 'Репозиторий', {
      required: true,
      search: true,
      filter: 'contains',
      aliases: ['Репозиторий', 'Ссылка', 'repository', 'repo', 'url'],
    }),
    field.enum(
      'platform',
      'Платформа',
      [
        { value: 'github', label: 'GitHub' },
        { value: 'gitlab', label: 'GitLab' },
        { value: 'bitbucket', label: 'Bitbucket' },
        { value: 'gitee', label: 'Gitee' },
        { value: 'other', label: 'Другая' },
      ],
      { aliases: ['Платформа', 'platform', 'hosting'] },
    ),
    field.string('owner', 'Владелец', { search: true, filter: 'contains', aliases: ['Владелец', 'Автор', 'owner', 'author'] }),
    field.string('repo_name', 'Название', { search: true, filter: 'contains', aliases: ['Название', 'name', 'repo name'] }),
    field.string('matched_keywords', 'Совпадения', {
      search: true,
      aliases: ['Совпадения', 'Ключевые слова', 'keywords', 'matches'],
    }),
    field.boolean('secrets_found', 'Найдены секреты', { aliases: ['Секреты', 'Найдены секреты', 'secrets'] }),
  ],
  columns: [
    'id',
    'repo_url',
    'platform',
    'owner',
    'secrets_found',
    'status_id',
    'priority_id',
    'decision_id',
    'tags',
    'created_at',
  ],
  fingerprint: ['repo_url'],
  title: (d) => String(d.repo_name ?? d.repo_url ?? ''),
  decisions: TAKEDOWN_DECISIONS,
  extras: ['decisions', 'files'],
  sample: (n) => ({
    repo_url: `https://github.com/dev${n}/sber-internal-api`,
    platform: 'github',
    owner: `dev${n}`,
    repo_name: 'sber-internal-api',
    matched_keywords: 'sberbank.ru, api_key',
    secrets_found: n % 2 === 0,
  }),
};

/* GET /modules/merchant/events/breach_categories and questionable_categories (from the registry). */
import { categoriesResponse } from '@forpost/contract/events';
import { BREACH_CATEGORIES, QUESTIONABLE_CATEGORIES } from '@forpost/contract/modules';
import { assertModule, callerOf } from '../../../lib/caller';
import { eventsPath, pascal, tagsOf } from '../events.routes';
import type { ExtraRegistrar } from './extras';

export const merchantCategoriesExtra: ExtraRegistrar = (app, m) => {
  const lists = [
    ['breach_categories', 'BreachCategories', 'категории нарушений', BREACH_CATEGORIES],
    ['questionable_categories', 'QuestionableCategories', 'сомнительные категории', QUESTIONABLE_CATEGORIES],
  ] as const;
  for (const [path, op, label, list] of lists) {
    app.get(
      `${eventsPath(m)}/${path}`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `list${pascal(m.code)}${op}`,
          tags: tagsOf(m),
          summary: `${m.name}: ${label}`,
          response: { 200: categoriesResponse },
        },
      },
      async (req) => {
        assertModule(callerOf(req), m.code);
        return { items: list.map((o) => ({ code: o.value, name: o.label })) };
      },
    );
  }
};
